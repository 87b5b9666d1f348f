import { classifyNode, commandNameOf, explainRuns, walk } from './classify'
import type { StatementKind } from './classify'
import { isPgParserLoaded, loadPgParser, parseSql, scanSql } from './pg-parser'
import type { ParsedStatement, ParseOutcome } from './pg-parser'

/*
 * The SQL guard on PostgreSQL's own parser: where each statement of a text begins and ends,
 * and whether it reads, writes or controls the transaction. Protected profiles and read-only
 * tabs ask it before anything is sent; Run all, the CLI and the parameter filler split by it.
 * Text the parser refuses is never called read.
 */

export type { StatementKind } from './classify'
export { loadPgParser } from './pg-parser'

/**
 * A text and PostgreSQL's parse of it, handed from the guard down one send (the read-only wrap,
 * the statement count, the audit text) so that a send parses its text once (~0.5 ms a
 * statement on main's loop, each time).
 */
export interface ParsedText {
  sql: string
  outcome: ParseOutcome
}

/** Parses `sql` once, to be handed on (needs the parser loaded). */
export function parseText(sql: string): ParsedText {
  return { sql, outcome: parseSql(sql) }
}

/** The parse of `sql`: the one handed on when it is of this very text, else parsed now. */
export function parseOnce(sql: string, parsed?: ParsedText): ParseOutcome {
  return parsed !== undefined && parsed.sql === sql ? parsed.outcome : parseSql(sql)
}

/** A statement as PostgreSQL's parser placed it, and what it does. */
export interface GuardedStatement extends ParsedStatement {
  /** The command in words (SELECT, DELETE, SET, transaction control ...). */
  command: string
  verdict: StatementKind
}

/** The statements, or why the text cannot be read (PostgreSQL's message and position). */
export type GuardAnalysis =
  { ok: true; statements: GuardedStatement[] } | Extract<ParseOutcome, { ok: false }>

export interface GuardOptions {
  /**
   * Whether the database is known to run with `standard_conforming_strings = on` (learned once
   * per database). Unknown or off, a plain `'…'` literal holding a backslash is ambiguous: with
   * the setting off, `'\''` is one string and the statement boundaries are not the parser's.
   */
  standardConformingStrings?: boolean | NotLearned
}

/** The database was asked for its standard_conforming_strings and did not say: why, in words. */
export interface NotLearned {
  notLearned: string
}

/** Parses and classifies `sql`; loads the parser first when needed. */
export async function analyzeSql(sql: string, options: GuardOptions = {}): Promise<GuardAnalysis> {
  await loadPgParser()
  return analyzeSqlLoaded(sql, options)
}

/**
 * `analyzeSql` once the parser has loaded (`loadPgParser()`), without awaiting; from `handed`
 * when it is this text's parse.
 */
export function analyzeSqlLoaded(
  sql: string,
  options: GuardOptions = {},
  handed?: ParsedText,
): GuardAnalysis {
  if (!isPgParserLoaded()) throw new Error('The PostgreSQL parser is not loaded')
  const parsed = parseOnce(sql, handed)
  if (!parsed.ok) return parsed
  const ambiguous = options.standardConformingStrings === true ? null : backslashLiteral(sql)
  const preparedReads = new Set<string>()
  const statements = parsed.statements.map((statement): GuardedStatement => {
    let verdict = classifyNode(statement.node, { preparedReads })
    if (verdict.kind === 'read' && ambiguous !== null && overlaps(statement, ambiguous)) {
      verdict = {
        kind: 'write',
        literal: true,
        reason: backslashReason(ambiguous.text, options.standardConformingStrings),
      }
    }
    const prepare = (statement.node as { PrepareStmt?: { name?: unknown } }).PrepareStmt
    if (prepare !== undefined && verdict.kind === 'read' && typeof prepare.name === 'string') {
      preparedReads.add(prepare.name)
    }
    return {
      node: statement.node,
      text: statement.text,
      start: statement.start,
      end: statement.end,
      command: commandNameOf(statement.node),
      verdict,
    }
  })
  return { ok: true, statements }
}

/**
 * The text's verdict: a write when any statement writes (the first reason given), transaction
 * control when any statement is one, else a read. A text the parser refuses is a write: it is
 * not known what PostgreSQL would make of it.
 */
export function verdictOf(analysis: GuardAnalysis): StatementKind {
  if (!analysis.ok) {
    return {
      kind: 'write',
      reason: `PostgreSQL's parser refuses the text (${analysis.message}), so it cannot be shown to only read`,
    }
  }
  const write = analysis.statements.find((statement) => statement.verdict.kind === 'write')
  if (write) return write.verdict
  const control = analysis.statements.find((statement) => statement.verdict.kind === 'transaction')
  if (control) return control.verdict
  return { kind: 'read' }
}

/**
 * Whether knowing the database's standard_conforming_strings would change the verdict: some
 * statement is a write only because of a plain literal holding a backslash.
 */
export function needsConformingStrings(analysis: GuardAnalysis): boolean {
  return (
    analysis.ok &&
    analysis.statements.some(
      (statement) => statement.verdict.kind === 'write' && statement.verdict.literal === true,
    )
  )
}

/** Whether a statement of the text sets (or resets) standard_conforming_strings. */
export function setsConformingStrings(analysis: GuardAnalysis): boolean {
  return (
    analysis.ok &&
    analysis.statements.some((statement) => {
      const set = (statement.node as { VariableSetStmt?: { kind?: unknown; name?: unknown } })
        .VariableSetStmt
      return (
        set !== undefined &&
        (set.kind === 'VAR_RESET_ALL' ||
          (typeof set.name === 'string' &&
            set.name.toLowerCase() === 'standard_conforming_strings'))
      )
    })
  )
}

/**
 * Why a plain literal holding a backslash keeps a statement from being a read. When the app
 * asked the database and got no answer (a timeout while it starts, the service unreachable), the
 * user is told so, and that running it again may do, rather than only to rewrite the literal.
 */
function backslashReason(literal: string, known: GuardOptions['standardConformingStrings']) {
  const holds = `the literal ${literal.slice(0, 40)} holds a backslash, which reads differently`
  const rewrite = "write it as E'…' or with $$…$$"
  if (typeof known === 'object') {
    return (
      `${holds} when standard_conforming_strings is off, and this database's setting could not ` +
      `be learned (${known.notLearned}); run it again once the database answers, or ${rewrite}`
    )
  }
  return `${holds} when standard_conforming_strings is off; ${rewrite}`
}

/** The first plain `'…'` literal holding a backslash, by its place in the text. */
function backslashLiteral(sql: string): { start: number; end: number; text: string } | null {
  if (!sql.includes('\\')) return null
  const literal = scanSql(sql).find(
    (token) => token.kind === 'SCONST' && token.text.startsWith("'") && token.text.includes('\\'),
  )
  return literal ?? null
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end
}

export interface StatementSpan {
  text: string
  start: number
  end: number
}

/**
 * Where the statements of `sql` begin and end: PostgreSQL's parse when the text parses (BEGIN
 * ATOMIC bodies whole), else the top-level `;` of PostgreSQL's scanner, so a text with a
 * mistake in one statement still splits (each piece is then judged alone, and the one the
 * parser refuses is never a read). Needs the parser loaded.
 */
export function splitSqlLoaded(sql: string, handed?: ParsedText): StatementSpan[] {
  const parsed = parseOnce(sql, handed)
  if (parsed.ok) {
    return parsed.statements.map(({ text, start, end }) => ({ text, start, end }))
  }
  const spans: StatementSpan[] = []
  let from = 0
  const push = (to: number) => {
    const raw = sql.slice(from, to)
    const start = from + (raw.length - raw.trimStart().length)
    const text = raw.trim()
    if (text !== '') spans.push({ text, start, end: start + text.length })
  }
  for (const token of scanSql(sql)) {
    if (token.text !== ';') continue
    push(token.start)
    from = token.end
  }
  push(sql.length)
  return spans
}

/**
 * Why the text cannot run inside a read-only tab's own transaction, or null: transaction
 * control would end it (`COMMIT would end …`, named as the user wrote it: END, ABORT), and
 * `SET TRANSACTION …` or the read-only settings would change it.
 */
export function readOnlyConflict(analysis: GuardAnalysis): string | null {
  if (!analysis.ok) return null
  const control = analysis.statements.find((statement) => statement.verdict.kind === 'transaction')
  if (control === undefined) return null
  if (control.command.startsWith('SET')) {
    return `${control.command} would change the read-only transaction this tab runs in`
  }
  const word = /^[A-Za-z]+/.exec(control.text)?.[0]?.toUpperCase() ?? control.command
  return `${word} would end the read-only transaction this tab runs in`
}

/**
 * Why a statement of the text destroys much at once, or null: `UPDATE`/`DELETE` without `WHERE`
 * (a CTE's too), `DROP`, `ALTER … DROP` and `TRUNCATE`; EXPLAIN without ANALYZE runs nothing.
 * Every profile asks before these (a setting, on by default).
 */
export function destructiveReasonOf(analysis: GuardAnalysis): string | null {
  if (!analysis.ok) return null
  for (const statement of analysis.statements) {
    const reason = destructiveNode(statement.node)
    if (reason !== null) return reason
  }
  return null
}

function destructiveNode(node: Record<string, unknown>): string | null {
  const [type, body] = Object.entries(node)[0] ?? ['', {}]
  const fields = (body ?? {}) as Record<string, unknown>
  if (type === 'DropStmt') return 'DROP removes objects and their data'
  if (type === 'TruncateStmt') return 'TRUNCATE empties whole tables'
  if (type === 'ExplainStmt') {
    const query = fields['query']
    return explainRuns(fields) && typeof query === 'object' && query !== null
      ? destructiveNode(query as Record<string, unknown>)
      : null
  }
  if (type === 'AlterTableStmt') {
    const commands = Array.isArray(fields['cmds']) ? fields['cmds'] : []
    const drops = commands.some((command) =>
      /^AT_Drop/.test(
        String((command as { AlterTableCmd?: { subtype?: unknown } }).AlterTableCmd?.subtype),
      ),
    )
    if (drops) return 'ALTER … DROP removes objects and their data'
  }
  let reason: string | null = null
  walk(node, (key, value) => {
    if (reason !== null) return false
    if (key !== 'DeleteStmt' && key !== 'UpdateStmt') return true
    const statement = value as { whereClause?: unknown; whereCurrentOf?: unknown }
    if (statement.whereClause === undefined) {
      reason =
        key === 'DeleteStmt'
          ? 'DELETE without WHERE removes every row of the table'
          : 'UPDATE without WHERE changes every row of the table'
    }
    return true
  })
  return reason
}
