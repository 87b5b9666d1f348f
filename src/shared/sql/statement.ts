/*
 * A statement's place in the editor's text, as main's guard split it (`sql.plan`, PostgreSQL's
 * own parser), so the editor can highlight it and put an error's caret at the right character.
 */

export interface Statement {
  /** The statement's text, from its first significant character to its last (no ';'). */
  text: string
  /** Offsets in the editor's text: [from, to). Comments before the statement are left out. */
  from: number
  to: number
}

/**
 * The statement the cursor is in. Between statements (or after the last ';'), the nearest one
 * before the cursor; before the first, the first. Null when the text has none.
 */
export function statementAt<T extends Statement>(
  statements: readonly T[],
  cursor: number,
): T | null {
  let candidate: T | null = null
  for (const statement of statements) {
    if (cursor >= statement.from && cursor <= statement.to) return statement
    if (statement.to <= cursor) candidate = statement
    else break
  }
  return candidate ?? statements[0] ?? null
}
