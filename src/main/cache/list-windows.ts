import type Database from 'better-sqlite3'

/*
 * Windows of a cached list: the screen asks for the rows it shows, with the list's
 * counts, filtered and sorted here in SQLite rather than in the window. The statements are
 * built from a fixed set of shapes (how many filter words, which kind of order), prepared once
 * per shape and named by it; every value (profile, kind, words, the sort field's JSON path,
 * offset, limit) is a bound parameter, never SQL text.
 */

export interface ListWindowQuery {
  /** First row, in the filtered and sorted order. */
  offset: number
  limit: number
  /** Rows whose id contains every word (case-insensitive); [] keeps every row. */
  words?: readonly string[]
  /** A field of the row's object; null or absent: the service's order. */
  sort?: { field: string; direction: 'asc' | 'desc' } | null
}

export interface ListWindow {
  /** Rows in the whole list. */
  total: number
  /** Rows that pass the filter (total when there is none). */
  matched: number
  /** The window's rows' JSON texts, in order. */
  items: string[]
}

/** Filter words beyond this are ignored (a query of 8 words narrows enough). */
export const MAX_FILTER_WORDS = 8
/** A field name usable in a JSON path without escaping. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
export const SORT_FIELD_PATTERN = /^[^"\\\u0000-\u001f]{1,100}$/

const BASE = 'FROM cached_items WHERE profile_id = ? AND kind = ?'

export function createListWindows(db: Database.Database) {
  const statements = new Map<string, Database.Statement>()
  function statement(name: string, sql: () => string): Database.Statement {
    let prepared = statements.get(name)
    if (prepared === undefined) {
      prepared = db.prepare(sql())
      statements.set(name, prepared)
    }
    return prepared
  }

  const countAll = db.prepare<[string, string], { n: number }>(`SELECT count(*) AS n ${BASE}`)
  // Positions are 0..n-1 in the service's order: a plain window is a range of the primary key.
  const plainWindow = db.prepare<[string, string, number, number], { item_json: string }>(
    `SELECT item_json ${BASE} AND position >= ? ORDER BY position LIMIT ?`,
  )

  /**
   * One condition per word of `folding` (foldingOf): `lower()` for an ASCII word, which it
   * folds as JS does; unicode_lower (a call into JS per row) for any other.
   */
  function wordClause(folding: string): string {
    return [...folding]
      .map((kind) =>
        kind === 'a'
          ? ' AND instr(lower(item_id), ?) > 0'
          : ' AND instr(unicode_lower(item_id), ?) > 0',
      )
      .join('')
  }

  function orderClause(sort: ListWindowQuery['sort']): string {
    if (!sort) return 'ORDER BY position'
    const direction = sort.direction === 'desc' ? 'DESC' : 'ASC'
    // Missing values last in both directions; equal values keep the service's order.
    const value = sort.field === 'id' ? 'item_id' : 'json_extract(item_json, ?)'
    return `ORDER BY ${value} IS NULL, ${value} ${direction}, position`
  }

  const firstWhere = db.prepare<[string, string, string, unknown], { item_json: string }>(
    `SELECT item_json ${BASE} AND json_extract(item_json, ?) = ? ORDER BY position LIMIT 1`,
  )

  return {
    /** The first row whose `field` equals `value` (true is stored by JSON as 1). */
    first(profileId: string, kind: string, field: string, value: string | number | boolean) {
      if (!SORT_FIELD_PATTERN.test(field)) throw new TypeError(`cannot look up "${field}"`)
      const bound = typeof value === 'boolean' ? Number(value) : value
      return firstWhere.get(profileId, kind, `$."${field}"`, bound)?.item_json ?? null
    },

    window(profileId: string, kind: string, query: ListWindowQuery): ListWindow {
      const total = countAll.get(profileId, kind)?.n ?? 0
      const words = (query.words ?? [])
        .map((word) => word.toLowerCase())
        .filter(Boolean)
        .slice(0, MAX_FILTER_WORDS)
      const sort = query.sort ?? null
      if (sort && !SORT_FIELD_PATTERN.test(sort.field)) {
        throw new TypeError(`cannot sort by "${sort.field}"`)
      }
      const offset = Math.max(0, Math.floor(query.offset))
      const limit = Math.max(0, Math.floor(query.limit))

      if (words.length === 0 && sort === null) {
        const rows = plainWindow.all(profileId, kind, offset, limit)
        return { total, matched: total, items: rows.map((row) => row.item_json) }
      }

      let matched = total
      // Which words need unicode_lower: the statements' cache key, and what they are made of.
      const folding = foldingOf(words)
      if (words.length > 0) {
        const count = statement(
          `count:${folding}`,
          () => `SELECT count(*) AS n ${BASE}${wordClause(folding)}`,
        )
        matched = (count.get(profileId, kind, ...words) as { n: number } | undefined)?.n ?? 0
      }
      const shape = sort === null ? 'service' : sort.field === 'id' ? 'id' : 'field'
      const direction = sort?.direction === 'desc' ? 'desc' : 'asc'
      const select = statement(`window:${folding}:${shape}:${direction}`, () =>
        [
          `SELECT item_json ${BASE}${wordClause(folding)}`,
          orderClause(sort),
          'LIMIT ? OFFSET ?',
        ].join(' '),
      )
      const path = shape === 'field' ? [`$."${sort!.field}"`, `$."${sort!.field}"`] : []
      const rows = select.all(profileId, kind, ...words, ...path, limit, offset) as {
        item_json: string
      }[]
      return { total, matched, items: rows.map((row) => row.item_json) }
    },
  }
}

/** One letter per word: `a` for an ASCII word, `u` for one that needs unicode_lower. */
function foldingOf(words: readonly string[]): string {
  // eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters too
  return words.map((word) => (/^[\u0000-\u007f]*$/.test(word) ? 'a' : 'u')).join('')
}
