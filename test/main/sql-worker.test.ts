import { afterAll, describe, expect, it } from 'vitest'
import { formatResult } from '../../src/main/sql/formats'
import { parseSqlAnswer } from '../../src/main/sql/parse-result'
import { ResultStore } from '../../src/main/sql/result-store'
import { createSqlResults } from '../../src/main/workers/sql-worker-client'

/*
 * SQL results off main's event loop: the worker thread decodes, parses and keeps a
 * result, and every read of it (windows, cells, sorts, copies, a save's text) gives what the
 * same ResultStore on main gave; exact numbers stay exact (they never leave the worker as
 * values), a released or broken result is reported, not swallowed. A real worker thread, from
 * source under tsx.
 */

const results = createSqlResults()
afterAll(() => results.close())

const OWNER = { tabId: 'tab-1', databaseId: 'db-1' }

function answer(rows: unknown[][]): string {
  return JSON.stringify({
    object: 'sql_result',
    data: { command: 'SELECT', rowCount: rows.length, fields: ['id', 'big', 'doc'], rows },
  })
}

/** The same text kept by a ResultStore on this thread, as main kept results before. */
function keptHere(text: string): { store: ResultStore; id: string } {
  const store = new ResultStore()
  return { store, id: store.put(OWNER, parseSqlAnswer(text)).id }
}

describe('the SQL worker', () => {
  it('keeps a result and answers windows, cells, sorts and copies as main did', async () => {
    const rows = Array.from({ length: 2_500 }, (_, index) => [index, `v${index % 7}`, null])
    const text = answer(rows)
    const kept = await results.keep('r-1', OWNER, Buffer.from(text), 100)
    const { rows: parsedRows, ...meta } = parseSqlAnswer(text)
    expect(kept.summary).toEqual({ ...meta, rows: parsedRows.length })
    const here = keptHere(text)
    expect(kept.firstRows).toEqual(here.store.window(here.id, 0, 100))
    expect(await results.window('r-1', 2_400, 200)).toEqual(here.store.window(here.id, 2_400, 200))
    await results.sort('r-1', 1, 'desc')
    here.store.sort(here.id, 1, 'desc')
    expect(await results.window('r-1', 0, 50)).toEqual(here.store.window(here.id, 0, 50))
    expect(await results.cell('r-1', 3, 1)).toBe(here.store.cell(here.id, 3, 1))
    const copy = await results.format('r-1', 'csv', { headers: true, from: 10, to: 20 })
    const expected = [
      ...formatResult('csv', meta.fields, [...here.store.rowsInOrder(here.id, 10, 20)], {
        headers: true,
      }),
    ].join('')
    expect(copy).toEqual({ text: expected, rows: 10 })
  })

  it('streams a whole result in order, in more than one chunk', async () => {
    const wide = 'x'.repeat(200)
    const text = answer(Array.from({ length: 3_000 }, (_, index) => [index, wide, null]))
    await results.keep('r-stream', OWNER, Buffer.from(text), 0)
    const chunks: string[] = []
    for await (const chunk of results.stream('r-stream', 'json')) chunks.push(chunk)
    expect(chunks.length).toBeGreaterThan(1)
    const here = keptHere(text)
    const fields = parseSqlAnswer(text).fields
    expect(chunks.join('')).toBe(
      [...formatResult('json', fields, here.store.rowsInOrder(here.id), { headers: true })].join(
        '',
      ),
    )
    expect(await results.info('r-stream')).toEqual({ databaseId: 'db-1', fields, rows: 3_000 })
  })

  it('a save that stops early ends its stream; the next save starts from the first row', async () => {
    const wide = 'y'.repeat(200)
    const text = answer(Array.from({ length: 3_000 }, (_, index) => [index, wide, null]))
    await results.keep('r-stop', OWNER, Buffer.from(text), 0)
    let first = ''
    for await (const chunk of results.stream('r-stop', 'csv')) {
      first = chunk
      break
    }
    const whole: string[] = []
    for await (const chunk of results.stream('r-stop', 'csv')) whole.push(chunk)
    expect(whole.length).toBeGreaterThan(1)
    expect(whole[0]).toBe(first)
    expect(
      whole
        .join('')
        .split('\n')
        .filter((line) => line !== ''),
    ).toHaveLength(3_001)
  })

  it('keeps exact numbers exact, nested ones too', async () => {
    const rows = Array.from({ length: 1_200 }, (_, index) => [index, 1, { n: 1 }])
    const text = answer(rows).replace(
      '[1199,1,{"n":1}]',
      '[1199,9007199254740993,{"n":12345678901234567890}]',
    )
    await results.keep('r-exact', OWNER, Buffer.from(text), 0)
    expect(await results.cell('r-exact', 1_199, 1)).toBe('9007199254740993')
    expect(await results.cell('r-exact', 1_199, 2)).toContain('12345678901234567890')
  })

  it('reads UTF-8 bytes moved to it: from a buffer of its own and from a pooled one', async () => {
    const rows = Array.from({ length: 1_500 }, (_, index) => [index, `zürich ✓ ${index}`, null])
    const text = answer(rows)
    const own = Buffer.from(text)
    await results.keep('r-own', OWNER, own, 0)
    expect(await results.cell('r-own', 1_499, 1)).toBe('zürich ✓ 1499')
    // Moved, not copied: the caller's buffer is emptied.
    expect(own.buffer.byteLength).toBe(0)
    // A small body in Node's shared pool is copied instead: the pool stays whole.
    const small = answer([[1, 'ä', null]])
    const pooled = Buffer.from(small)
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength)
    await results.keep('r-pooled', OWNER, pooled, 1)
    expect(await results.window('r-pooled', 0, 1)).toEqual([['1', 'ä', null]])
    expect(pooled.toString()).toBe(small)
  })

  it('says a released result is released, for one id and for a whole tab', async () => {
    await results.keep('r-gone', OWNER, Buffer.from(answer([[1, 'a', null]])), 0)
    await results.keep('r-tab', { tabId: 'tab-2', databaseId: 'db-1' }, Buffer.from(answer([])), 0)
    await results.release(['r-gone'])
    await results.releaseTab('tab-2')
    for (const id of ['r-gone', 'r-tab']) {
      await expect(results.window(id, 0, 1)).rejects.toMatchObject({ code: 'RESULT_RELEASED' })
    }
  })

  it('reports an answer it cannot read as BAD_RESPONSE', async () => {
    const broken = Buffer.from('{"object":"sql_result","data":')
    await expect(results.keep('r-broken', OWNER, broken, 0)).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('not JSON'),
    })
  })
})
