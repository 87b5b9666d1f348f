import { tokenize } from '../../shared/sql/lexer'

/*
 * A statement's shape: its words, names and punctuation, with every literal written `…` and
 * comments dropped. The activity log keeps it for a statement PostgreSQL's parser refuses, whose
 * secrets cannot be located (statement-audit-text.ts): what was run, against what, stays
 * readable, and no literal reaches the log.
 */

/** Characters kept at most; a longer shape ends in `…`. */
export const STATEMENT_SHAPE_LENGTH = 200

export function statementShape(sql: string, max = STATEMENT_SHAPE_LENGTH): string {
  return shapeOf(sql, max).shape
}

/** The shape, and how many literals it hides (none: the shape is the text, comments aside). */
export function shapeOf(sql: string, max: number): { shape: string; hidden: number } {
  let shape = ''
  let hidden = 0
  let lastEnd: number | null = null
  let commentBetween = false
  for (const token of tokenize(sql)) {
    if (token.kind === 'comment') {
      commentBetween = true
      continue
    }
    // One space where the source had a gap: whitespace or a comment (not the E of E'…', which
    // the lexer leaves out of every token).
    if (lastEnd !== null && (commentBetween || /\s/.test(sql.slice(lastEnd, token.from)))) {
      shape += ' '
    }
    const literal =
      token.kind === 'string' || token.kind === 'dollar-string' || token.kind === 'number'
    if (literal) hidden += 1
    shape += literal ? '…' : sql.slice(token.from, token.to)
    lastEnd = token.to
    commentBetween = false
  }
  return { shape: shape.length > max ? `${shape.slice(0, max - 1).trimEnd()}…` : shape, hidden }
}
