import { tokenize } from '../../shared/sql/lexer'

/*
 * A statement as the activity log keeps it (and its CSV and NDJSON exports, made to be handed
 * to an auditor): its words, names and punctuation, with every literal written `…` and comments
 * dropped. What was run, against what, stays readable; a password in `ALTER ROLE … PASSWORD`,
 * a customer's e-mail in a WHERE or a value in an INSERT never reach the log. The whole text
 * stays in the SQL console's own history, on this machine only.
 */

/** Characters kept at most; a longer shape ends in `…`. */
export const STATEMENT_SHAPE_LENGTH = 200

export function statementShape(sql: string, max = STATEMENT_SHAPE_LENGTH): string {
  let shape = ''
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
    shape += literal ? '…' : sql.slice(token.from, token.to)
    lastEnd = token.to
    commentBetween = false
  }
  return shape.length > max ? `${shape.slice(0, max - 1).trimEnd()}…` : shape
}
