import { afterAll, describe, expect, it } from 'vitest'
import { parseSqlAnswer } from '../../src/main/sql/parse-result'
import { ExactNumber } from '../../src/main/sql/values'
import { createSqlParseWorker } from '../../src/main/workers/sql-worker-client'

/*
 * The SQL result's parse off main's event loop (issue 18): the worker thread gives back what
 * parseSqlAnswer gives on main, rows taken in slices, exact numbers still ExactNumbers (at any
 * depth), and a broken answer is reported, not swallowed. A real worker thread, from source
 * under tsx.
 */

const parser = createSqlParseWorker()
afterAll(() => parser.close())

function answer(rows: unknown[][]): string {
  return JSON.stringify({
    object: 'sql_result',
    data: { command: 'SELECT', rowCount: rows.length, fields: ['id', 'big', 'doc'], rows },
  })
}

describe('the SQL parse worker', () => {
  it('gives back what parseSqlAnswer gives, over several slices', async () => {
    const text = answer(Array.from({ length: 2_500 }, (_, index) => [index, `v${index}`, null]))
    const parsed = await parser.parse(Buffer.from(text))
    expect(parsed).toEqual(parseSqlAnswer(text))
    expect(parsed.rows).toHaveLength(2_500)
    expect(parsed.rows[2_499]).toEqual([2_499, 'v2499', null])
  })

  it('keeps exact numbers exact, nested ones too', async () => {
    const rows = Array.from({ length: 1_200 }, (_, index) => [index, 1, { n: 1 }])
    const text = answer(rows).replace(
      '[1199,1,{"n":1}]',
      '[1199,9007199254740993,{"n":12345678901234567890}]',
    )
    const parsed = await parser.parse(Buffer.from(text))
    const [, big, doc] = parsed.rows[1_199] ?? []
    expect(big).toBeInstanceOf(ExactNumber)
    expect((big as ExactNumber).source).toBe('9007199254740993')
    expect((doc as { n: unknown }).n).toBeInstanceOf(ExactNumber)
    expect(parsed).toEqual(parseSqlAnswer(text))
  })

  it('reads UTF-8 bytes moved to it: text from a buffer of its own and from a pooled one', async () => {
    const rows = Array.from({ length: 1_500 }, (_, index) => [index, `zürich ✓ ${index}`, null])
    const text = answer(rows)
    const own = Buffer.from(text)
    expect(await parser.parse(own)).toEqual(parseSqlAnswer(text))
    // Moved, not copied: the caller's buffer is emptied.
    expect(own.buffer.byteLength).toBe(0)
    // A small body in Node's shared pool is copied instead: the pool stays whole.
    const small = answer([[1, 'ä', null]])
    const pooled = Buffer.from(small)
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength)
    expect(await parser.parse(pooled)).toEqual(parseSqlAnswer(small))
    expect(pooled.toString()).toBe(small)
  })

  it('reports an answer it cannot read as BAD_RESPONSE', async () => {
    await expect(parser.parse(Buffer.from('{"object":"sql_result","data":'))).rejects.toMatchObject(
      {
        code: 'BAD_RESPONSE',
        message: expect.stringContaining('not JSON'),
      },
    )
  })
})
