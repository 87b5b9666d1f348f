import { describe, expect, it } from 'vitest'
import { formatSql } from '../../src/renderer/src/features/sql/format-sql'
import { tokenize } from '../../src/shared/sql/lexer'

/*
 * Format SQL: sql-formatter's PostgreSQL dialect, as the editor's Shift+Alt+F runs
 * it. Formatting moves whitespace only: the lexer sees the same tokens before and after.
 */

const meaningful = (sql: string) =>
  tokenize(sql)
    .filter((token) => token.kind !== 'comment')
    .map((token) => `${token.kind}:${token.value}`)

describe('formatSql', () => {
  it('lays a statement out by clause and keeps every token', async () => {
    const text =
      "select a.id, a.name::text, $$ x ; y $$ as d from accounts a join orders o on o.aid=a.id where a.id in (:ids) and a.name = :name and b = $1 and x = 'it''s'"
    const formatted = await formatSql(text)
    expect(formatted).toBe(
      [
        'select',
        '  a.id,',
        '  a.name::text,',
        '  $$ x ; y $$ as d',
        'from',
        '  accounts a',
        '  join orders o on o.aid = a.id',
        'where',
        '  a.id in (:ids)',
        '  and a.name = :name',
        '  and b = $1',
        "  and x = 'it''s'",
      ].join('\n'),
    )
    expect(meaningful(formatted)).toEqual(meaningful(text))
  })
})
