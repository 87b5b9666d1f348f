/*
 * A small PostgreSQL lexer: just enough to know where statements end and which words are
 * keywords rather than text. It understands what can hide a ';' or a keyword: '…' strings
 * (with '' and, for E'…', backslash escapes), "quoted identifiers", $tag$ dollar quotes,
 * -- line comments and nested /* block comments *\/. Everything else is words, numbers and
 * punctuation. Pure TypeScript: shared by the editor (renderer) and the guard in main.
 */

export type TokenKind =
  | 'word' // keyword or unquoted identifier (lowercased in `value`)
  | 'quoted-identifier'
  | 'string'
  | 'dollar-string'
  | 'number'
  | 'comment'
  | 'punctuation'
  | 'parameter' // $1, $2...

export interface Token {
  kind: TokenKind
  /** For words, lowercased; for everything else the source text. */
  value: string
  from: number
  to: number
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/
const DIGIT = /[0-9]/
/** A dollar-quote tag: `$$` or `$name$`, where name does not start with a digit. */
const DOLLAR_TAG = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = []
  let index = 0
  const length = sql.length
  while (index < length) {
    const char = sql[index]!
    const start = index
    if (/\s/.test(char)) {
      index += 1
      continue
    }
    if (char === '-' && sql[index + 1] === '-') {
      const end = sql.indexOf('\n', index)
      index = end === -1 ? length : end
      tokens.push({ kind: 'comment', value: sql.slice(start, index), from: start, to: index })
      continue
    }
    if (char === '/' && sql[index + 1] === '*') {
      index = endOfBlockComment(sql, index)
      tokens.push({ kind: 'comment', value: sql.slice(start, index), from: start, to: index })
      continue
    }
    if (char === "'") {
      const escapes = isEscapeStringPrefix(sql, index)
      index = endOfQuoted(sql, index, "'", escapes)
      tokens.push({ kind: 'string', value: sql.slice(start, index), from: start, to: index })
      continue
    }
    if (char === '"') {
      index = endOfQuoted(sql, index, '"', false)
      tokens.push({
        kind: 'quoted-identifier',
        value: sql.slice(start, index),
        from: start,
        to: index,
      })
      continue
    }
    if (char === '$') {
      const tag = DOLLAR_TAG.exec(sql.slice(index, index + 64))?.[0]
      // An identifier may contain '$' (handled as part of words), so a tag only starts here.
      if (tag !== undefined) {
        const close = sql.indexOf(tag, index + tag.length)
        index = close === -1 ? length : close + tag.length
        tokens.push({
          kind: 'dollar-string',
          value: sql.slice(start, index),
          from: start,
          to: index,
        })
        continue
      }
      if (DIGIT.test(sql[index + 1] ?? '')) {
        index += 1
        while (index < length && DIGIT.test(sql[index]!)) index += 1
        tokens.push({ kind: 'parameter', value: sql.slice(start, index), from: start, to: index })
        continue
      }
    }
    if (WORD_START.test(char)) {
      // E'…', U&'…', B'…', X'…', N'…' string prefixes are read with the string above.
      index += 1
      while (index < length && WORD_PART.test(sql[index]!)) index += 1
      if (sql[index] === "'" && /^(?:e|b|x|n)$/i.test(sql.slice(start, index))) continue
      if (sql[index] === '&' && /^u$/i.test(sql.slice(start, index)) && sql[index + 1] === "'") {
        index += 1
        continue
      }
      tokens.push({
        kind: 'word',
        value: sql.slice(start, index).toLowerCase(),
        from: start,
        to: index,
      })
      continue
    }
    if (DIGIT.test(char) || (char === '.' && DIGIT.test(sql[index + 1] ?? ''))) {
      index += 1
      while (index < length && /[0-9.eE_]/.test(sql[index]!)) {
        // An exponent sign belongs to the number.
        if (/[eE]/.test(sql[index]!) && /[+-]/.test(sql[index + 1] ?? '')) index += 1
        index += 1
      }
      tokens.push({ kind: 'number', value: sql.slice(start, index), from: start, to: index })
      continue
    }
    index += 1
    tokens.push({ kind: 'punctuation', value: char, from: start, to: index })
  }
  return tokens
}

function isEscapeStringPrefix(sql: string, quoteIndex: number): boolean {
  const before = sql[quoteIndex - 1]
  if (before === undefined || !/[eE]/.test(before)) return false
  const beforePrefix = sql[quoteIndex - 2]
  return beforePrefix === undefined || !WORD_PART.test(beforePrefix)
}

/** Index just past the closing quote (doubled quotes continue the text), or the end. */
function endOfQuoted(sql: string, open: number, quote: string, backslashEscapes: boolean): number {
  let index = open + 1
  while (index < sql.length) {
    const char = sql[index]!
    if (backslashEscapes && char === '\\') {
      index += 2
      continue
    }
    if (char === quote) {
      if (sql[index + 1] === quote) {
        index += 2
        continue
      }
      return index + 1
    }
    index += 1
  }
  return sql.length
}

/** Block comments nest in PostgreSQL: `/* a /* b *\/ still a comment *\/`. */
function endOfBlockComment(sql: string, open: number): number {
  let depth = 0
  let index = open
  while (index < sql.length) {
    if (sql.startsWith('/*', index)) {
      depth += 1
      index += 2
    } else if (sql.startsWith('*/', index)) {
      depth -= 1
      index += 2
      if (depth === 0) return index
    } else {
      index += 1
    }
  }
  return sql.length
}

/** Tokens that carry meaning: comments dropped. */
export function significantTokens(tokens: readonly Token[]): Token[] {
  return tokens.filter((token) => token.kind !== 'comment')
}
