import { afterAll, describe, expect, it } from 'vitest'
import { SQL_ERROR_CODES } from '../../src/shared/bridge/channels/sql'
import { compareResults, comparisonWindow } from '../../src/main/sql/compare'
import { parseSqlAnswer } from '../../src/main/sql/parse-result'
import { ResultStore } from '../../src/main/sql/result-store'
import { createSqlResults } from '../../src/main/workers/sql-worker-client'

/*
 * Pin and compare: two kept results compared by a key column. Real parsing of the
 * service's answer text (exact numbers included), the real ResultStore, and once through the
 * real SQL worker thread as the bridge uses it.
 */

const OWNER = { tabId: 'tab-1', databaseId: 'db-1' }

/** Op 5's answer text: rows as the service writes them (bare numbers stay bare). */
function answerText(fields: string[], rows: string[]): string {
  return `{"object":"sql_result","data":{"command":"SELECT","rowCount":${rows.length},"fields":${JSON.stringify(fields)},"rows":[${rows.join(',')}]}}`
}

function kept(store: ResultStore, fields: string[], rows: string[]) {
  return store.put(OWNER, parseSqlAnswer(answerText(fields, rows)))
}

const FIELDS = ['id', 'name', 'amount']

describe('compareResults', () => {
  it('finds exactly the added, removed and changed rows, and marks the changed cells', () => {
    const store = new ResultStore()
    const before = kept(store, FIELDS, [
      '[1,"a","10.00"]',
      '[2,"b","20.00"]',
      '[3,"c","30.00"]',
      '[4,"d",null]',
    ])
    const after = kept(store, FIELDS, [
      '[1,"a","10.00"]',
      '[2,"B","20.00"]',
      '[4,"d","0"]',
      '[5,"e","50.00"]',
    ])
    const comparison = compareResults(before, after, 0)
    expect({
      added: comparison.added,
      removed: comparison.removed,
      changed: comparison.changed,
      unchanged: comparison.unchanged,
    }).toEqual({ added: 1, removed: 1, changed: 2, unchanged: 1 })
    expect(comparisonWindow(comparison, 0, 100)).toEqual([
      { kind: 'changed', cells: ['2', 'B', '20.00'], previous: ['2', 'b', '20.00'], changed: [1] },
      { kind: 'changed', cells: ['4', 'd', '0'], previous: ['4', 'd', null], changed: [2] },
      { kind: 'added', cells: ['5', 'e', '50.00'], previous: null, changed: [] },
      { kind: 'removed', cells: ['3', 'c', '30.00'], previous: null, changed: [] },
    ])
    // Windows are slices of the same rows.
    expect(comparisonWindow(comparison, 2, 1)).toEqual([
      { kind: 'added', cells: ['5', 'e', '50.00'], previous: null, changed: [] },
    ])
  })

  it('matches keys and compares cells by their exact text, never through a float', () => {
    const store = new ResultStore()
    const before = kept(
      store,
      ['id', 'amount'],
      ['[9007199254740993, 0.1000000000000000055511151231257827]', '[9007199254740992, 1]'],
    )
    const after = kept(
      store,
      ['id', 'amount'],
      ['[9007199254740993, 0.1]', '[9007199254740992, 1]', '[{"k":1}, 2]'],
    )
    const comparison = compareResults(before, after, 0)
    expect(comparisonWindow(comparison, 0, 10)).toEqual([
      {
        kind: 'changed',
        cells: ['9007199254740993', '0.1'],
        previous: ['9007199254740993', '0.1000000000000000055511151231257827'],
        changed: [1],
      },
      { kind: 'added', cells: ['{"k":1}', '2'], previous: null, changed: [] },
    ])
    expect(comparison.unchanged).toBe(1)
  })

  it('follows the new result’s sort order', () => {
    const store = new ResultStore()
    const before = kept(store, FIELDS, ['[1,"a","1"]', '[2,"b","2"]', '[3,"c","3"]'])
    const after = kept(store, FIELDS, ['[1,"x","1"]', '[2,"y","2"]', '[3,"z","3"]'])
    store.sort(after.id, 0, 'desc')
    const keys = comparisonWindow(compareResults(before, after, 0), 0, 10).map(
      (row) => row.cells[0],
    )
    expect(keys).toEqual(['3', '2', '1'])
  })

  it('refuses a key that repeats on either side, naming the value', () => {
    const store = new ResultStore()
    const unique = kept(store, FIELDS, ['[1,"a","1"]', '[2,"b","2"]'])
    const repeated = kept(store, FIELDS, ['[1,"a","1"]', '[1,"b","2"]'])
    for (const [before, after, side] of [
      [repeated, unique, 'pinned'],
      [unique, repeated, 'new'],
    ] as const) {
      expect(() => compareResults(before, after, 0)).toThrowError(
        expect.objectContaining({
          code: SQL_ERROR_CODES.COMPARE_REFUSED,
          message: `The key column "id" repeats the value "1" in the ${side} result: choose a column whose values are unique`,
        }),
      )
    }
    // Keyed on a unique column instead, the same rows compare.
    expect(compareResults(unique, repeated, 1).changed).toBe(1)
  })

  it('refuses a key that is NULL in some row, with the count', () => {
    const store = new ResultStore()
    const before = kept(store, FIELDS, ['[1,"a","1"]', '[null,"b","2"]', '[null,"c","3"]'])
    const after = kept(store, FIELDS, ['[1,"a","1"]'])
    expect(() => compareResults(before, after, 0)).toThrowError(
      expect.objectContaining({
        code: SQL_ERROR_CODES.COMPARE_REFUSED,
        message:
          'The key column "id" is NULL in 2 rows of the pinned result: NULL matches no row, so choose a column that is never NULL',
      }),
    )
  })

  it('refuses results whose columns differ, saying how', () => {
    const store = new ResultStore()
    const before = kept(store, FIELDS, ['[1,"a","1"]'])
    const fewer = kept(store, ['id', 'name'], ['[1,"a"]'])
    const renamed = kept(store, ['id', 'title', 'amount'], ['[1,"a","1"]'])
    const reordered = kept(store, ['id', 'amount', 'name'], ['[1,"1","a"]'])
    const refusal = (message: string) =>
      expect.objectContaining({ code: SQL_ERROR_CODES.COMPARE_REFUSED, message })
    expect(() => compareResults(before, fewer, 0)).toThrowError(
      refusal(
        'These results have different columns (the new result lacks amount): only results with the same columns compare',
      ),
    )
    expect(() => compareResults(before, renamed, 0)).toThrowError(
      refusal(
        'These results have different columns (the new result lacks name; the new result adds title): only results with the same columns compare',
      ),
    )
    expect(() => compareResults(before, reordered, 0)).toThrowError(
      refusal(
        'These results have different columns (the columns are in another order): only results with the same columns compare',
      ),
    )
  })

  it('reports identical results as all unchanged, with no rows', () => {
    const store = new ResultStore()
    const rows = ['[1,"a","1"]', '[2,{"x":[1,2]},"2"]']
    const comparison = compareResults(kept(store, FIELDS, rows), kept(store, FIELDS, rows), 0)
    expect(comparison.unchanged).toBe(2)
    expect(comparisonWindow(comparison, 0, 10)).toEqual([])
  })
})

describe('compare in the SQL worker', () => {
  const results = createSqlResults()
  afterAll(() => results.close())

  it('compares two kept results, reads the comparison by window, and releases it', async () => {
    const rows = (changedEvery: number) =>
      Array.from(
        { length: 5_000 },
        (_, index) => `[${index},"r${index}",${index % changedEvery === 0 ? -index : index}]`,
      )
    await results.keep('before', OWNER, Buffer.from(answerText(FIELDS, rows(1_000_000))), 0)
    await results.keep('after', OWNER, Buffer.from(answerText(FIELDS, rows(1_000))), 0)
    const counts = await results.compare('cmp-1', { before: 'before', after: 'after' }, 0)
    // Rows 1000, 2000, 3000, 4000 changed (row 0 is -0, written as 0 on both sides).
    expect(counts).toEqual({ added: 0, removed: 0, changed: 4, unchanged: 4_996 })
    const window = await results.compareWindow('cmp-1', 1, 2)
    expect(window).toEqual([
      {
        kind: 'changed',
        cells: ['2000', 'r2000', '-2000'],
        previous: ['2000', 'r2000', '2000'],
        changed: [2],
      },
      {
        kind: 'changed',
        cells: ['3000', 'r3000', '-3000'],
        previous: ['3000', 'r3000', '3000'],
        changed: [2],
      },
    ])
    await expect(
      results.compare('cmp-2', { before: 'before', after: 'gone' }, 0),
    ).rejects.toMatchObject({ code: SQL_ERROR_CODES.RESULT_RELEASED })
    await results.release(['cmp-1'])
    await expect(results.compareWindow('cmp-1', 0, 1)).rejects.toMatchObject({
      code: SQL_ERROR_CODES.RESULT_RELEASED,
    })
  })
})
