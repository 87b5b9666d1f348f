import { beforeAll, describe, expect, it } from 'vitest'
import { ServiceError } from '../../src/main/api'
import { parseSqlAnswer } from '../../src/main/sql/parse-result'
import {
  answerShapeOf,
  statementLimitRefusal,
  wrapReadOnly,
} from '../../src/main/sql/read-only-wrap'
import { displayText } from '../../src/main/sql/values'
import { loadPgParser } from '../../src/main/sql-guard'
import { planSqlLoaded } from '../../src/main/sql-guard/plan'
import { groupTransactionBlocks } from '../../src/shared/sql/transaction-blocks'

/*
 * The pure parts of SQL on a service that runs each statement on its own: the transaction
 * blocks of a script, the read-only wrap, the answer's shape and limit, and reading one result
 * of `results[]` with what the service cut.
 */

function groups(sql: string) {
  return groupTransactionBlocks(planSqlLoaded(sql, 'run').statements).map(
    ({ from, to, block, open }) => [from, to, block, open],
  )
}

beforeAll(async () => {
  // Blocks and the read-only wrap split as PostgreSQL's parser does.
  await loadPgParser()
})

describe('groupTransactionBlocks', () => {
  it('keeps each block whole and every other statement alone', () => {
    expect(groups('select 1; begin; insert into t values (1); commit; select 2')).toEqual([
      [0, 1, false, false],
      [1, 4, true, false],
      [4, 5, false, false],
    ])
  })

  it('ends a block at END, ROLLBACK, ABORT and PREPARE TRANSACTION; not at ROLLBACK TO or AND CHAIN', () => {
    expect(groups('start transaction; select 1; end')).toEqual([[0, 3, true, false]])
    expect(groups('begin; savepoint s; rollback to s; select 1; rollback')).toEqual([
      [0, 5, true, false],
    ])
    expect(groups('begin; select 1; commit and chain; select 2; abort')).toEqual([
      [0, 5, true, false],
    ])
    expect(groups("begin; select 1; prepare transaction 'x'; select 2")).toEqual([
      [0, 3, true, false],
      [3, 4, false, false],
    ])
  })

  it('says when a block is left open at the end of the script', () => {
    expect(groups('select 1; begin; update t set a = 1')).toEqual([
      [0, 1, false, false],
      [1, 3, true, true],
    ])
    expect(groups('begin')).toEqual([[0, 1, false, true]])
  })
})

describe('wrapReadOnly', () => {
  it('puts the text between BEGIN TRANSACTION READ ONLY and ROLLBACK, on lines of their own', () => {
    expect(wrapReadOnly('select 1 -- a comment')).toEqual({
      sql: 'BEGIN TRANSACTION READ ONLY;\nselect 1 -- a comment\n;\nROLLBACK;',
      prefix: 'BEGIN TRANSACTION READ ONLY;\n',
    })
  })

  it.each(["select 'open", 'select 1 /* open', 'select "open'])(
    'refuses %s, whose end would swallow the ROLLBACK',
    (sql) => {
      expect(wrapReadOnly(sql)).toMatchObject({ refused: expect.stringMatching(/ROLLBACK/) })
    },
  )
})

describe('what an answer shows of its service', () => {
  it('tells results[] from one result', () => {
    expect(answerShapeOf(Buffer.from('{"data":{"results":[],"truncated":false}}'))).toBe('results')
    expect(answerShapeOf(Buffer.from('{"data":{"command":"SELECT","rows":[]}}'))).toBe('single')
    expect(answerShapeOf(Buffer.from('{"data":{"truncated":false,"results":[]}}'))).toBe('results')
  })

  it('reads the statement limit a refusal states', () => {
    const refusal = new ServiceError(
      'POSTGRES_STATEMENT_LIMIT_EXCEEDED',
      'Postgres SQL execution is limited to 10 statements per request',
      { status: 400 },
    )
    expect(statementLimitRefusal(refusal)).toEqual({ limit: 10 })
    expect(statementLimitRefusal(new ServiceError('DATABASE_QUERY_FAILED', 'x'))).toBeNull()
  })
})

describe('one result of results[]', () => {
  /** A real deployment's answer: `results` (each one's maxRows 500) under `data`. */
  const resultsAnswer = (results: Record<string, unknown>[]) =>
    JSON.stringify({
      data: {
        results: results.map((result) => ({ truncated: false, maxRows: 500, ...result })),
        truncated: false,
        resultLimit: 10,
      },
    })
  const WRAP = { rowCount: 0, durationMs: 0, fields: [], rows: [] }
  const answer = resultsAnswer([
    { command: 'BEGIN', ...WRAP },
    {
      command: 'SELECT',
      rowCount: 3,
      durationMs: 2,
      fields: ['id', 'raw', 'doc'],
      rows: [
        { id: '9007199254740993', raw: { type: 'Buffer', data: [0, 255] }, doc: { a: 1 } },
        { id: '-12.50', raw: null, doc: { preview: '{"a":[1,2', truncated: true } },
        { id: '7', raw: { type: 'Buffer', data: [] } },
      ],
      truncated: true,
    },
    { command: 'ROLLBACK', ...WRAP },
  ])

  it("skips the wrap's BEGIN and ROLLBACK and reads the user's result", () => {
    const parsed = parseSqlAnswer(answer, { wrapped: true })
    expect(parsed.command).toBe('SELECT')
    expect(parsed.answer).toEqual({ shape: 'results', results: 1, resultLimit: 10 })
    expect(parsed.fields.map((field) => field.display)).toEqual(['number', 'text', 'json'])
  })

  it('shows bytea as \\x hex, a cut value and a left-out member as cut, never as NULL', () => {
    const parsed = parseSqlAnswer(answer, { wrapped: true })
    const cells = parsed.rows.map((row) => row.map(displayText))
    expect(cells).toEqual([
      ['9007199254740993', '\\x00ff', '{"a":1}'],
      ['-12.50', null, '{"a":[1,2… [cut by the service]'],
      ['7', '\\x', '[cut by the service]'],
    ])
    expect(parsed.truncatedBy).toBe('size')
    expect(parsed.notes.join('\n')).toMatch(/cut 2 values of this result/)
  })

  it('keeps a column of digit strings with a leading zero as text', () => {
    const zip = resultsAnswer([
      { command: 'SELECT', rowCount: 2, fields: ['zip'], rows: [{ zip: '01234' }, { zip: '5' }] },
    ])
    expect(parseSqlAnswer(zip).fields[0]?.display).toBe('text')
  })
})
