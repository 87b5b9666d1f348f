import { tokenize, type Token } from './lexer'

/*
 * Splits an editor's text into statements at top-level ';' (never one inside a string, a
 * quoted identifier, a dollar quote or a comment), keeping each statement's place in the text
 * so the editor can highlight it and put an error's caret at the right character.
 */

export interface Statement {
  /** The statement's text, from its first significant character to its last (no ';'). */
  text: string
  /** Offsets in the editor's text: [from, to). Comments before the statement are left out. */
  from: number
  to: number
}

export function splitStatements(sql: string): Statement[] {
  return splitTokens(sql, tokenize(sql))
}

function splitTokens(sql: string, tokens: readonly Token[]): Statement[] {
  const statements: Statement[] = []
  let first: Token | null = null
  let last: Token | null = null
  let parenDepth = 0
  // CREATE RULE … DO (a; b) holds ';' inside parentheses; ';' splits only at depth 0.
  const flush = () => {
    if (first && last) {
      statements.push({ text: sql.slice(first.from, last.to), from: first.from, to: last.to })
    }
    first = null
    last = null
    parenDepth = 0
  }
  for (const token of tokens) {
    if (token.kind === 'punctuation' && token.value === ';' && parenDepth <= 0) {
      flush()
      continue
    }
    // Comments inside a statement stay in its text; those before or after it are left out.
    if (token.kind === 'comment') continue
    if (token.kind === 'punctuation' && token.value === '(') parenDepth += 1
    if (token.kind === 'punctuation' && token.value === ')') parenDepth -= 1
    first ??= token
    last = token
  }
  flush()
  return statements
}

/**
 * The statement the cursor is in. Between statements (or after the last ';'), the nearest one
 * before the cursor; before the first, the first. Null when the text has none.
 */
export function statementAt(statements: readonly Statement[], cursor: number): Statement | null {
  let candidate: Statement | null = null
  for (const statement of statements) {
    if (cursor >= statement.from && cursor <= statement.to) return statement
    if (statement.to <= cursor) candidate = statement
    else break
  }
  return candidate ?? statements[0] ?? null
}
