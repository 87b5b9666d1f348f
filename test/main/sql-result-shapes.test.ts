import { describe, expect, it } from 'vitest'
import { ServiceError } from '../../src/main/api'
import { readFirstPage, readFirstPageOfBytes } from '../../src/main/sql/first-page'
import { parseSqlAnswer } from '../../src/main/sql/parse-result'
import { boundOf, maxRowsRefusal } from '../../src/main/sql/row-bound'
import { displayText, ExactNumber } from '../../src/main/sql/values'

/*
 * Op 5's result in the shapes the spec leaves open (docs/SERVICE.md, "Op 5 — SQL results"): rows
 * as objects without a field list, node-postgres's fields with type OIDs, timing under other
 * names, no command tag, rows of mixed shapes; and the maxRows bound a refusal states.
 */

const answer = (data: unknown) => JSON.stringify({ data })
const names = (text: string) => parseSqlAnswer(text).fields.map((field) => field.name)

describe('rows as objects without a field list', () => {
  it('takes the columns from the keys, in first-seen order across rows', () => {
    const result = parseSqlAnswer(
      '{"data":{"rows":[{"a":1,"b":"x","c":null}],"rowCount":1,"truncated":false,"tookMs":1}}',
    )
    expect(result.fields.map((field) => field.name)).toEqual(['a', 'b', 'c'])
    expect(result.rows).toEqual([[1, 'x', null]])
    expect(result.columnsFrom).toBe('rows')
    expect(result.command).toBe('')
    expect(result.rowCount).toBe(1)
  })

  it('adds keys later rows bring, and reads a missing key as NULL', () => {
    const text = answer({ rows: [{ a: 1 }, { b: 2, a: 3 }, { c: true }] })
    expect(names(text)).toEqual(['a', 'b', 'c'])
    expect(parseSqlAnswer(text).rows).toEqual([
      [1, null, null],
      [3, 2, null],
      [null, null, true],
    ])
  })

  it('reads `data` that is itself the array of rows', () => {
    const result = parseSqlAnswer(answer([{ id: 1, name: 'a' }]))
    expect(result.fields.map((field) => field.name)).toEqual(['id', 'name'])
    expect(result.rows).toEqual([[1, 'a']])
  })

  it('guesses each column display from its values when no type is given', () => {
    const result = parseSqlAnswer(answer({ rows: [{ n: 1, t: 'x', b: true, j: { k: 1 } }] }))
    expect(result.fields.map((field) => field.display)).toEqual([
      'number',
      'text',
      'boolean',
      'json',
    ])
  })

  it('keeps exact numbers in object rows', () => {
    const result = parseSqlAnswer('{"data":{"rows":[{"big":9007199254740993}]}}')
    expect(result.rows[0]?.[0]).toBeInstanceOf(ExactNumber)
    expect(displayText(result.rows[0]?.[0])).toBe('9007199254740993')
  })
})

describe('node-postgres fields: { name, dataTypeID }', () => {
  it('names the types from their OIDs and reads object rows by the field list', () => {
    const fields = [
      ['flag', 16],
      ['big', 20],
      ['small', 21],
      ['int', 23],
      ['words', 25],
      ['doc', 114],
      ['real', 700],
      ['double', 701],
      ['name', 1043],
      ['day', 1082],
      ['at', 1114],
      ['atz', 1184],
      ['price', 1700],
      ['id', 2950],
      ['docb', 3802],
      ['custom', 91234],
    ].map(([name, dataTypeID]) => ({ name, dataTypeID }))
    const row = Object.fromEntries(fields.map((field) => [field.name, null]))
    const result = parseSqlAnswer(answer({ command: 'SELECT', rowCount: 1, fields, rows: [row] }))
    expect(result.fields.map((field) => field.dataType)).toEqual([
      'bool',
      'int8',
      'int2',
      'int4',
      'text',
      'json',
      'float4',
      'float8',
      'varchar',
      'date',
      'timestamp',
      'timestamptz',
      'numeric',
      'uuid',
      'jsonb',
      '',
    ])
    expect(result.columnsFrom).toBe('fields')
    expect(result.rows[0]).toHaveLength(16)
  })

  it('keeps numeric exact when its OID says numeric', () => {
    const result = parseSqlAnswer(
      '{"data":{"fields":[{"name":"price","dataTypeID":1700}],"rows":[{"price":1.10}]}}',
    )
    expect(result.fields[0]).toMatchObject({ dataType: 'numeric', display: 'number' })
    expect(displayText(result.rows[0]?.[0])).toBe('1.10')
  })

  it('says that columns of one name share the one value an object row holds', () => {
    const result = parseSqlAnswer(
      answer({
        fields: [
          { name: 'a', dataTypeID: 23 },
          { name: 'a', dataTypeID: 23 },
        ],
        rows: [{ a: 2 }],
      }),
    )
    expect(result.rows).toEqual([[2, 2]])
    expect(result.notes.join(' ')).toMatch(/named a appear more than once/)
  })
})

describe('the service time under another name', () => {
  it.each([
    ['durationMs', 4],
    ['tookMs', 4],
    ['elapsedMs', 4],
    ['executionTimeMs', 4],
    ['duration', 4],
    ['took', '4ms'],
    ['elapsed', '0.004 s'],
  ])('reads %s', (key, value) => {
    const result = parseSqlAnswer(answer({ rows: [], [key]: value }))
    expect(result.durationMs).toBeCloseTo(4)
  })

  it('is null when the answer says nothing of time', () => {
    expect(parseSqlAnswer(answer({ rows: [] })).durationMs).toBeNull()
  })
})

describe('rows of mixed shapes', () => {
  it('reads arrays by position and objects by name when there is a field list', () => {
    const result = parseSqlAnswer(
      answer({
        fields: [{ name: 'a' }, { name: 'b' }],
        rows: [[1, 'x'], { b: 'y', a: 2 }],
      }),
    )
    expect(result.rows).toEqual([
      [1, 'x'],
      [2, 'y'],
    ])
    expect(result.rowShape).toBe('mixed')
    expect(result.notes.join(' ')).toMatch(/some rows as arrays and some as objects/)
  })

  it('refuses them without a field list, saying exactly why', () => {
    expect(() => parseSqlAnswer(answer({ rows: [{ a: 1 }, [2]] }))).toThrow(
      "The service's answer to runPostgresQuery (operation 5) is not usable: rows mix arrays (rows.1) and objects (rows.0) and there is no field list, so the arrays' columns cannot be named",
    )
  })

  it('names a row that is neither', () => {
    expect(() => parseSqlAnswer(answer({ rows: [[1], 'x'] }))).toThrow(
      /rows\.1 is neither an array nor an object/,
    )
  })
})

describe('array rows without names', () => {
  it('numbers the columns rather than showing none', () => {
    const result = parseSqlAnswer(answer({ rows: [[1, 'x']] }))
    expect(result.fields.map((field) => field.name)).toEqual(['column 1', 'column 2'])
    expect(result.notes.join(' ')).toMatch(/no field list/)
  })

  it('numbers the cells past the last named field', () => {
    const result = parseSqlAnswer(answer({ fields: [{ name: 'a' }], rows: [[1, 2]] }))
    expect(result.fields.map((field) => field.name)).toEqual(['a', 'column 2'])
  })
})

describe('readFirstPage', () => {
  it('leaves object rows to the whole parse (later rows may add columns)', () => {
    const rows = Array.from({ length: 150 }, (_, index) =>
      index === 120 ? { a: index, late: true } : { a: index },
    )
    const text = answer({ fields: [{ name: 'a', dataTypeID: 23 }], rows })
    expect(readFirstPage(text, 100)).toBeNull()
    expect(names(text)).toEqual(['a', 'late'])
  })

  it('reads the first rows from a head of the bytes, a larger head when rows are wide', () => {
    const fields = [
      { name: 'a', dataType: 'int4' },
      { name: 'wide', dataType: 'text' },
    ]
    // 100 rows of 4 kB: past the first head (256 kB), within the second; multi-byte text, so
    // the first head ends inside a character.
    const wide = 'ä✓'.repeat(800)
    const rows = Array.from({ length: 3_000 }, (_, index) => [index, `${index} ${wide}`])
    const body = Buffer.from(answer({ fields, rows }))
    const page = readFirstPageOfBytes(body, 100)
    expect(page?.complete).toBe(false)
    expect(page?.result.rows).toHaveLength(100)
    expect(page?.result.rows[99]).toEqual([99, `99 ${wide}`])
    // Object rows are left to the whole parse, from bytes as from text.
    const objects = Buffer.from(
      answer({ fields, rows: rows.map(([a, text]) => ({ a, wide: text })) }),
    )
    expect(readFirstPageOfBytes(objects, 100)).toBeNull()
    // A small answer ends within its head: complete.
    const small = readFirstPageOfBytes(Buffer.from(answer({ fields, rows: [[1, 'x']] })), 100)
    expect(small?.complete).toBe(true)
  })

  it('still answers early for array rows under a field list', () => {
    const rows = Array.from({ length: 150 }, (_, index) => [index])
    const page = readFirstPage(answer({ fields: [{ name: 'a', dataType: 'int4' }], rows }), 100)
    expect(page?.result.rows).toHaveLength(100)
  })
})

describe('the maxRows bound a refusal states', () => {
  it.each([
    ['Must be at most 2000', 2000],
    ['Number must be less than or equal to 2000', 2000],
    ['Too big: expected number to be <=2000', 2000],
    ['maxRows must be at most 2,000', 2000],
    ['must be less than 2001', 2000],
    ['maximum is 500', 500],
    ['2000 rows at the very most', 2000],
  ])('reads "%s"', (message, bound) => {
    expect(boundOf(message, 100_000)).toBe(bound)
  })

  it('knows no bound in a message without one, or one not below what was asked', () => {
    expect(boundOf('Invalid', 100_000)).toBeNull()
    expect(boundOf('Must be at most 2000', 1500)).toBeNull()
    expect(boundOf('between 1 and 2000', 100_000)).toBeNull()
  })

  it('recognises a VALIDATION_ERROR on maxRows, whatever the form of its path', () => {
    const refusal = (path: unknown) =>
      new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
        details: [{ path, message: 'Must be at most 2000' }],
      })
    expect(maxRowsRefusal(refusal('maxRows'))).toBe('Must be at most 2000')
    expect(maxRowsRefusal(refusal(['maxRows']))).toBe('Must be at most 2000')
    expect(maxRowsRefusal(refusal(['body', 'maxRows']))).toBe('Must be at most 2000')
    expect(maxRowsRefusal(refusal('body.maxRows'))).toBe('Must be at most 2000')
    expect(maxRowsRefusal(refusal(['sql']))).toBeNull()
    expect(maxRowsRefusal(new ServiceError('NOT_FOUND', 'no'))).toBeNull()
  })
})
