import { describe, expect, it } from 'vitest'
import { readFirstPage } from '../../src/main/sql/first-page'
import { formatResult } from '../../src/main/sql/formats'
import { parseSqlAnswer } from '../../src/main/sql/parse-result'
import { compareDecimalText, displayText, ExactNumber } from '../../src/main/sql/values'
import { ResultStore } from '../../src/main/sql/result-store'

/*
 * Op 5 answers as a real service might send them (numbers beyond a double, numeric as JSON
 * numbers, rows as objects), and the exact comparisons and text formats built on them.
 */

const answer = (data: unknown) => JSON.stringify({ data })

describe('parseSqlAnswer', () => {
  it('keeps numbers a double would change as the service wrote them', () => {
    const text = `{"data":{"command":"SELECT","rowCount":1,"fields":[{"name":"id","dataType":"int8"},{"name":"price","dataType":"numeric"},{"name":"ratio","dataType":"float8"}],"rows":[[9007199254740993,1.10,0.5]],"truncated":false,"durationMs":1}}`
    const result = parseSqlAnswer(text)
    expect(result.rows[0]?.map(displayText)).toEqual(['9007199254740993', '1.10', '0.5'])
    expect(result.rows[0]?.[0]).toBeInstanceOf(ExactNumber)
    expect(result.fields.map((field) => field.display)).toEqual(['number', 'number', 'number'])
  })

  it('stays on plain numbers when nothing needs the source text', () => {
    const result = parseSqlAnswer(
      answer({ fields: [{ name: 'n', dataType: 'int4' }], rows: [[1], [2.5]] }),
    )
    expect(result.rows).toEqual([[1], [2.5]])
  })

  it('accepts rows as objects, and infers display kinds without types', () => {
    const result = parseSqlAnswer(
      answer({
        command: 'SELECT',
        fields: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
        rows: [
          { a: 1, b: { x: 1 }, c: 'text' },
          { a: null, c: null },
        ],
      }),
    )
    expect(result.rows).toEqual([
      [1, { x: 1 }, 'text'],
      [null, null, null],
    ])
    expect(result.fields.map((field) => field.display)).toEqual(['number', 'json', 'text'])
    expect(result.rowCount).toBeNull()
  })

  it('says plainly when the answer is not usable', () => {
    expect(() => parseSqlAnswer('<html>')).toThrow(/not JSON/)
    expect(() => parseSqlAnswer(answer({ rows: [1] }))).toThrow(/rows.0/)
    expect(() => parseSqlAnswer(JSON.stringify({ rows: [] }))).toThrow(/data/)
  })
})

describe('exact values', () => {
  it('compares decimal text by value, exactly', () => {
    const sorted = ['10', '-2.5', '9223372036854775807', '9223372036854775806', '0.10', '1e2', '-0']
    sorted.sort(compareDecimalText)
    expect(sorted).toEqual([
      '-2.5',
      '-0',
      '0.10',
      '10',
      '1e2',
      '9223372036854775806',
      '9223372036854775807',
    ])
  })

  it('sorts a kept result by an int8 column held as strings without rounding', () => {
    const store = new ResultStore()
    const kept = store.put(
      { tabId: 't', databaseId: 'd' },
      {
        fields: [{ name: 'id', dataType: 'int8', display: 'number' }],
        rows: [['9007199254740993'], ['9007199254740992'], [null], ['-1']],
      },
    )
    store.sort(kept.id, 0, 'asc')
    expect(store.window(kept.id, 0, 10).map((row) => row[0])).toEqual([
      '-1',
      '9007199254740992',
      '9007199254740993',
      null,
    ])
    store.releaseTab('t')
    expect(() => store.window(kept.id, 0, 1)).toThrow(/no longer kept/)
  })

  it('writes JSON with exact numbers as numbers and NULL as null', () => {
    const text = [
      ...formatResult(
        'json',
        [
          { name: 'n', dataType: 'numeric', display: 'number' },
          { name: 'n', dataType: 'text', display: 'text' },
        ],
        [[new ExactNumber('1.10'), null]],
        { headers: true },
      ),
    ].join('')
    expect(text).toBe('[\n  {"n":1.10,"n_2":null}\n]\n')
  })

  it('keeps the results store within its bounds, oldest first', () => {
    const store = new ResultStore({ maxResults: 2, maxCells: 1000 })
    const field = [{ name: 'a', dataType: 'int4', display: 'number' as const }]
    const first = store.put({ tabId: 't', databaseId: 'd' }, { fields: field, rows: [[1]] })
    const second = store.put({ tabId: 't', databaseId: 'd' }, { fields: field, rows: [[2]] })
    store.window(first.id, 0, 1)
    const third = store.put({ tabId: 't', databaseId: 'd' }, { fields: field, rows: [[3]] })
    expect([store.has(first.id), store.has(second.id), store.has(third.id)]).toEqual([
      true,
      false,
      true,
    ])
  })
})

describe('readFirstPage', () => {
  const body = (rows: unknown[], extra = '') =>
    `{"data":{"command":"SELECT","rowCount":${rows.length},"fields":[{"name":"a]\\"rows\\":[","dataType":"text"}],"rows":${JSON.stringify(rows)}${extra},"truncated":false,"durationMs":2}}`

  it('reads the first rows of a big answer without parsing the rest', () => {
    const rows = Array.from({ length: 250 }, (_, index) => [`v${index}],"x\\" [`])
    const page = readFirstPage(body(rows), 100)
    expect(page?.complete).toBe(false)
    expect(page?.result.rows).toEqual(rows.slice(0, 100))
    expect(page?.result.fields[0]?.name).toBe('a]"rows":[')
    expect(page?.result.rowCount).toBe(250)
  })

  it('says when the page holds every row', () => {
    const page = readFirstPage(body([[1], [null]]), 100)
    expect(page).toMatchObject({ complete: true, result: { rows: [[1], [null]] } })
  })

  it('gives up on layouts it cannot read from the head', () => {
    expect(readFirstPage('{"data":{"rows":[[1]],"fields":[{"name":"a"}]}}', 100)).toBeNull()
    expect(readFirstPage('{"data":{"fields":[{"name":"a"}],"rows":[[1],', 100)).toBeNull()
    expect(readFirstPage('{"data":{"note":"\\"rows\\":[[1]]","fields":[]}}', 100)).toBeNull()
  })
})
