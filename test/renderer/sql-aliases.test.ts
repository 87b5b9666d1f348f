import { describe, expect, it } from 'vitest'
import { aliasesAt, columnsOf, qualifiedPrefix } from '../../src/renderer/src/features/sql/aliases'

/*
 * Alias resolution for completion: the aliases of the statement under the cursor,
 * read with the project's lexer.
 */

/** Aliases at the `|` in `text`, as plain entries. */
function at(text: string) {
  const cursor = text.indexOf('|')
  return Object.fromEntries(aliasesAt(text.replace('|', ''), cursor))
}

describe('aliasesAt', () => {
  it('finds aliases with and without AS, schema-qualified tables, and joins', () => {
    expect(
      at('select a.|, o.total from accounts a join public.orders as o on o.account_id = a.id'),
    ).toEqual({
      a: { schema: null, table: 'accounts' },
      o: { schema: 'public', table: 'orders' },
    })
  })

  it('reads comma-separated FROM lists and stops at the clause after them', () => {
    expect(at('select | from accounts a, orders o where a.id = o.id group by a.id')).toEqual({
      a: { schema: null, table: 'accounts' },
      o: { schema: null, table: 'orders' },
    })
  })

  it('never takes a keyword for an alias', () => {
    expect(at('select | from accounts where id = 1')).toEqual({})
    expect(at('select | from accounts left join orders on true')).toEqual({})
    expect(at('select | from only accounts x')).toEqual({ x: { schema: null, table: 'accounts' } })
  })

  it('keeps quoted names as written and folds unquoted ones', () => {
    expect(at('select | from "Sales"."Big Table" "T", Accounts A')).toEqual({
      T: { schema: 'Sales', table: 'Big Table' },
      a: { schema: null, table: 'accounts' },
    })
  })

  it('reads only the statement under the cursor', () => {
    const text = 'select * from accounts a;\nselect | from orders o;\nselect * from items i'
    expect(at(text)).toEqual({ o: { schema: null, table: 'orders' } })
    expect(at(text.replace('|', '') + ' where i.|')).toEqual({
      i: { schema: null, table: 'items' },
    })
  })

  it('ignores FROM inside strings, comments and dollar quotes', () => {
    expect(
      at(
        "select 'from fake f', $$ from fake2 g $$ /* from fake3 h */ -- from fake4 k\n, | from real r",
      ),
    ).toEqual({ r: { schema: null, table: 'real' } })
  })

  it('knows UPDATE and DELETE targets, and skips functions in FROM', () => {
    expect(at('update accounts acc set name = acc.|')).toEqual({
      acc: { schema: null, table: 'accounts' },
    })
    expect(at('delete from accounts d where d.|')).toEqual({
      d: { schema: null, table: 'accounts' },
    })
    expect(at('select | from generate_series(1, 3) g')).toEqual({})
  })
})

describe('columnsOf', () => {
  const schema = {
    public: { accounts: ['id', 'name'] },
    sales: { orders: ['id', 'total'], accounts: ['id', 'region'] },
  }

  it('looks in the named schema, else public, else the first schema that has the table', () => {
    expect(columnsOf(schema, { schema: 'sales', table: 'accounts' })).toEqual(['id', 'region'])
    expect(columnsOf(schema, { schema: null, table: 'accounts' })).toEqual(['id', 'name'])
    expect(columnsOf(schema, { schema: null, table: 'orders' })).toEqual(['id', 'total'])
    expect(columnsOf(schema, { schema: null, table: 'missing' })).toBeNull()
    expect(columnsOf(schema, { schema: null, table: 'constructor' })).toBeNull()
  })
})

describe('qualifiedPrefix', () => {
  it('reads the qualifier and the partial column before the cursor', () => {
    expect(qualifiedPrefix('select a.')).toEqual({ qualifier: 'a', partial: '' })
    expect(qualifiedPrefix('select A.na')).toEqual({ qualifier: 'a', partial: 'na' })
    expect(qualifiedPrefix('select "T".x')).toEqual({ qualifier: 'T', partial: 'x' })
    expect(qualifiedPrefix('select a')).toBeNull()
  })
})
