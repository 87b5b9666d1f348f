import { describe, expect, it } from 'vitest'
import { planRun, type RunContext } from '../../src/renderer/src/features/sql/run-plan'
import { splitStatements } from '../../src/shared/sql/splitter'

/*
 * What the console does before anything is sent, below e2e: read-only tabs refuse, protected
 * profiles ask before writes, every profile asks before destructive statements (a setting).
 */

const plain: RunContext = {
  mode: 'run',
  analyze: false,
  readOnly: false,
  protectedProfile: false,
  confirmDestructive: true,
}

const plan = (sql: string, context: Partial<RunContext> = {}) =>
  planRun(splitStatements(sql), { ...plain, ...context })

describe('planRun', () => {
  it('sends reads and ordinary writes on a plain profile', () => {
    expect(plan('select 1; select 2')).toEqual({ kind: 'send' })
    expect(plan('update t set a = 1 where id = 2')).toEqual({ kind: 'send' })
  })

  it('asks before a destructive statement on every profile, naming why', () => {
    const asked = plan('select 1; delete from t')
    expect(asked).toMatchObject({
      kind: 'confirm',
      title: 'destructive',
      flagged: [
        {
          statement: { text: 'delete from t' },
          reason: expect.stringMatching(/DELETE without WHERE/),
        },
      ],
    })
    expect(plan('delete from t', { confirmDestructive: false })).toEqual({ kind: 'send' })
  })

  it('EXPLAIN without ANALYZE runs nothing, so nothing is destructive; with ANALYZE it is', () => {
    expect(plan('drop table t', { mode: 'explain' })).toEqual({ kind: 'send' })
    expect(plan('delete from t', { mode: 'explain', analyze: true })).toMatchObject({
      kind: 'confirm',
      title: 'destructive',
    })
  })

  it('a protected profile asks before every write, the destructive reason beside it', () => {
    expect(plan("select nextval('s')", { protectedProfile: true })).toMatchObject({
      kind: 'confirm',
      title: 'protected',
      flagged: [{ reason: expect.stringMatching(/nextval/) }],
    })
    expect(plan('truncate t', { protectedProfile: true })).toMatchObject({
      kind: 'confirm',
      title: 'protected',
      flagged: [{ reason: 'TRUNCATE changes data — TRUNCATE empties whole tables' }],
    })
  })

  it('a read-only tab refuses any write, and says how many', () => {
    expect(plan('select 1; create table x (i int); drop table y', { readOnly: true })).toEqual({
      kind: 'refuse',
      notice:
        'Refused: this tab is read-only, and 2 statements are not read-only (CREATE changes the schema). Nothing was sent.',
      statement: expect.objectContaining({ text: 'create table x (i int)' }),
    })
  })
})
