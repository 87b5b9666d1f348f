import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JsonRowSplitter, JsonShapeError, splitJsonRows } from '../../src/main/api/json-rows'

/*
 * The row splitter (api/json-rows.ts): a list answer's bytes in, each element's text as sent
 * out, as soon as it is complete, whatever the chunks the bytes arrive in. Examples first, then
 * properties: any JSON list, any whitespace, any envelope, cut anywhere (inside strings, escapes
 * and multi-byte characters) reads the same rows and envelope as JSON.parse sees; any bytes
 * end in rows or a JsonShapeError, never another exception.
 */

const bytes = (text: string) => Buffer.from(text, 'utf8')

function rowsOf(text: string, member: string | null): string[] {
  return splitJsonRows(bytes(text), member).rows
}

/** The same body pushed in pieces cut at `cuts` (byte offsets, any order, any repeats). */
function splitInChunks(body: Buffer, member: string | null, cuts: number[]) {
  const rows: string[] = []
  const inexact: boolean[] = []
  const splitter = new JsonRowSplitter(member, (text, maybe) => {
    rows.push(text)
    inexact.push(maybe)
  })
  const points = [...new Set(cuts.map((cut) => cut % (body.length + 1)))].sort((a, b) => a - b)
  let from = 0
  for (const point of [...points, body.length]) {
    // A copy, reused afterwards: the splitter must not keep views of what it was given.
    const piece = Buffer.from(body.subarray(from, point))
    splitter.push(piece)
    piece.fill(0x20)
    from = point
  }
  return { rows, inexact, envelope: splitter.end() }
}

describe('JsonRowSplitter: rows of a list answer, as sent', () => {
  it('splits a top-level array, keeping each element exactly as written', () => {
    expect(rowsOf(' [ {"id":"a" , "n": 1}, {"id":"b"} ,null,"x",[1,[2]] ] \n', null)).toEqual([
      '{"id":"a" , "n": 1}',
      '{"id":"b"}',
      'null',
      '"x"',
      '[1,[2]]',
    ])
    expect(rowsOf('[]', null)).toEqual([])
    expect(rowsOf('[ ]', null)).toEqual([])
    expect(rowsOf('[1, -2.5e3 ,true]', null)).toEqual(['1', '-2.5e3', 'true'])
  })

  it('is not fooled by brackets, quotes and escapes inside strings, or by multi-byte text', () => {
    const tricky = [
      { id: 'a]b}c', note: 'say "[hi]"' },
      { id: 'back\\slash\\', more: '\\"' },
      { id: 'ünïcødé ✓ 😀', x: '{' },
    ]
    const text = JSON.stringify(tricky)
    expect(rowsOf(text, null).map((row) => JSON.parse(row))).toEqual(tricky)
    // Cut at every byte: the same rows.
    const body = bytes(text)
    for (let cut = 0; cut <= body.length; cut += 1) {
      expect(splitInChunks(body, null, [cut]).rows.map((row) => JSON.parse(row))).toEqual(tricky)
    }
  })

  it('finds the list inside an envelope, and leaves the envelope to be checked', () => {
    const text =
      '{"object":"list","meta":{"data":[9]},"d\\u0061ta":[{"id":"m1"},{"id":"m2"}],"x":"]"}'
    const split = splitJsonRows(bytes(text), 'data')
    expect(split.rows).toEqual(['{"id":"m1"}', '{"id":"m2"}'])
    expect(JSON.parse(split.envelope)).toEqual({
      object: 'list',
      meta: { data: [9] },
      data: [],
      x: ']',
    })
  })

  it('says which rows need the exact parse (16+ digits, exponents)', () => {
    expect(
      splitJsonRows(bytes('[{"id":"a","n":12345},{"n":9007199254740993}]'), null).inexact,
    ).toEqual([false, true])
    expect(splitJsonRows(bytes('[{"n":1e400},2E5,3]'), null).inexact).toEqual([true, true, false])
    // Digits inside strings do not count.
    expect(splitJsonRows(bytes('[{"id":"12345678901234567890"}]'), null).inexact).toEqual([false])
  })

  it('refuses what is not the list it looks for, without looping', () => {
    for (const [text, member] of [
      ['{"id":"a"}', null],
      ['[{"id":"a"}', null],
      ['[{"id":"a} ]', null],
      ['[1,,2]', null],
      ['[1,]', null],
      ['[,1]', null],
      ['{"object":"list"}', 'data'],
      ['[{"id":"a"}]', 'data'],
      ['{"data":[1],"data":[2]}', 'data'],
      ['', null],
    ] as const) {
      expect(() => splitJsonRows(bytes(text), member), text).toThrow(JsonShapeError)
    }
    // What follows the array is the envelope's: the caller's parse of it refuses it.
    expect(() => JSON.parse(splitJsonRows(bytes('[1] trailing'), null).envelope)).toThrow()
    // Two values without a comma make one element that JSON.parse refuses.
    expect(rowsOf('[1 2]', null)).toEqual(['1 2'])
  })
})

/** JSON text of `value` with the whitespace JSON allows, where it allows it. */
function spaced(value: unknown, space: string): string {
  if (Array.isArray(value)) {
    return `[${space}${value.map((item) => spaced(item, space)).join(`${space},${space}`)}${space}]`
  }
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(
      ([key, item]) => `${JSON.stringify(key)}${space}:${space}${spaced(item, space)}`,
    )
    return `{${space}${members.join(`${space},${space}`)}${space}}`
  }
  return JSON.stringify(value)
}

const space = fc.constantFrom('', ' ', '\n', '\t \r\n')
const rowValue = fc.jsonValue({ maxDepth: 3 })
const cuts = fc.array(fc.nat(), { maxLength: 12 })

describe('JsonRowSplitter: properties', () => {
  it('any list, any whitespace, cut anywhere: the rows JSON.parse sees, each as written', () => {
    fc.assert(
      fc.property(fc.array(rowValue, { maxLength: 8 }), space, cuts, (list, blank, at) => {
        const texts = list.map((item) => spaced(item, blank))
        const body = bytes(`${blank}[${blank}${texts.join(`${blank},${blank}`)}${blank}]${blank}`)
        const split = splitInChunks(body, null, at)
        expect(split.rows).toEqual(texts)
        expect(split.rows.map((row) => JSON.parse(row))).toEqual(JSON.parse(body.toString()))
        expect(JSON.parse(split.envelope)).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('any envelope around the list, cut anywhere: the rows, and the envelope with []', () => {
    const envelope = fc.dictionary(
      fc.string().filter((key) => key !== 'data' && key !== '__proto__'),
      rowValue,
      { maxKeys: 4 },
    )
    fc.assert(
      fc.property(
        envelope,
        envelope,
        fc.array(rowValue, { maxLength: 6 }),
        space,
        cuts,
        (before, after, list, blank, at) => {
          const whole = { ...before, data: list, ...after }
          const body = bytes(spaced(whole, blank))
          const split = splitInChunks(body, 'data', at)
          // As JSON.parse reads the body (-0 is written 0).
          const expected = JSON.parse(body.toString('utf8')) as { data: unknown[] }
          expect(split.rows.map((row) => JSON.parse(row))).toEqual(expected.data)
          expect(expected.data).toHaveLength(list.length)
          expect(JSON.parse(split.envelope)).toEqual({ ...expected, data: [] })
        },
      ),
      { numRuns: 300 },
    )
  })

  it('any bytes: rows and an envelope, or a JsonShapeError; the same however they are cut', () => {
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 80 }).map((array) => Buffer.from(array)),
      fc
        .tuple(fc.array(rowValue, { maxLength: 4 }), fc.nat(), fc.nat())
        .map(([list, from, length]) => {
          // A valid list with a piece cut out of it: truncations, unbalanced strings.
          const text = bytes(JSON.stringify({ data: list }))
          const start = from % (text.length + 1)
          return Buffer.concat([text.subarray(0, start), text.subarray(start + (length % 8))])
        }),
    )
    fc.assert(
      fc.property(bodies, fc.constantFrom(null, 'data'), cuts, (body, member, at) => {
        const outcome = (run: () => unknown) => {
          try {
            return { value: run() }
          } catch (error) {
            if (!(error instanceof JsonShapeError)) throw error
            return { error: error.message }
          }
        }
        const whole = outcome(() => splitJsonRows(body, member))
        expect(outcome(() => splitInChunks(body, member, at))).toEqual(whole)
        // Whatever the splitter accepts and JSON.parse accepts, row by row and the envelope,
        // JSON.parse accepts whole, with the same elements.
        if ('value' in whole) {
          const { rows, envelope } = whole.value as { rows: string[]; envelope: string }
          let parsed: { rows: unknown[]; envelope: unknown } | null
          try {
            parsed = { rows: rows.map((row) => JSON.parse(row)), envelope: JSON.parse(envelope) }
          } catch {
            parsed = null
          }
          if (parsed !== null) {
            const full: unknown = JSON.parse(body.toString('utf8'))
            const list = member === null ? full : (full as Record<string, unknown>)[member]
            expect(list).toEqual(parsed.rows)
          }
        }
      }),
      { numRuns: 500 },
    )
  })
})
