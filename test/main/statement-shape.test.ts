import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { statementShape } from '../../src/main/sql/statement-shape'

/*
 * What the activity log keeps of a statement (sql/statement-shape.ts): words and names as
 * written, every literal `…`, no comment.
 */

describe('statementShape', () => {
  it('keeps words, names, operators and parameters; writes every literal as …', () => {
    expect(
      statementShape(
        'SELECT id, "Full Name" FROM s.users WHERE email = \'a@b.c\' AND age > 42 LIMIT $1',
      ),
    ).toBe('SELECT id, "Full Name" FROM s.users WHERE email = … AND age > … LIMIT $1')
  })

  it('hides every form of string: escapes, dollar quotes, bit strings', () => {
    expect(
      statementShape(
        "insert into t(a, b) values (E'it\\'s', $$body; 'x'$$), (B'0101', $tag$y$tag$)",
      ),
    ).toBe('insert into t(a, b) values (…, …), (…, …)')
    expect(statementShape("ALTER ROLE app PASSWORD 'hunter2'")).toBe('ALTER ROLE app PASSWORD …')
  })

  it('drops comments, keeping a space where they were', () => {
    expect(statementShape('select 1 -- token abc\nfrom/* pw: x */t')).toBe('select … from t')
  })

  it('cuts a long statement to the length asked, ending in …', () => {
    const shape = statementShape(`select ${'column_name, '.repeat(50)}x from t`, 60)
    // 60 at most: a space before the cut is not kept.
    expect(shape.length).toBeLessThanOrEqual(60)
    expect(shape.length).toBeGreaterThan(55)
    expect(shape.endsWith('…')).toBe(true)
  })

  it('never lets a string literal through, whatever it holds', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((text) => /\w{3}/.test(text)),
        (secret) => {
          const literal = `'${secret.replace(/'/g, "''")}'`
          const shape = statementShape(`update t set password = ${literal} where id = 1`)
          expect(shape).toBe('update t set password = … where id = …')
        },
      ),
    )
  })
})
