import { tokenize, type Token } from './lexer'

import type { Statement } from './statement'

/*
 * A hand-written splitter at top-level ';' (never one inside a string, a quoted identifier, a
 * dollar quote or a comment, as this lexer reads them). The app no longer splits with it: the
 * console, the CLI and main's guard split with PostgreSQL's own parser (src/main/sql-guard).
 * It stays as the model of a real deployment's own splitter (the sandbox's gateway flavour
 * splits op 5's text so) and as the comparison `npm run sql-corpus` measures.
 */

export type { Statement }

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
