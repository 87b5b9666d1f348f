import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { Option } from 'commander'
import { SQL_MAX_ROWS, type SqlResultMeta } from '../../shared/bridge/channels/sql'
import { groupTransactionBlocks } from '../../shared/sql/transaction-blocks'
import { loadPgParser } from '../../main/sql-guard'
import { planSqlLoaded } from '../../main/sql-guard/plan'
import { CliError } from '../exit-codes'
import { note, writeOut } from '../output'
import { parsePositiveInt } from '../parse'
import type { DeskSession } from '../session'
import type { CommandRunner } from './runner'

/*
 * `infradesk sql`: each statement of the text through the app's `sql.run` (op 5), so the app's
 * guard judges it first: a protected profile's write is refused before it is sent unless
 * `--confirm-write`, and `--read-only` refuses anything not proven read-only. The rows are
 * written by the console's own formatters (`sql.copy`): CSV and JSON exactly as "Copy as"
 * gives them, a Markdown table for `--table`.
 */

type SqlFormat = 'csv' | 'json' | 'table'

interface SqlOptions {
  db: string
  file?: string
  csv?: boolean
  json?: boolean
  table?: boolean
  maxRows: number
  confirmWrite?: boolean
  readOnly?: boolean
}

const DEFAULT_MAX_ROWS = 1000

export function sqlCommand(program: Command, run: CommandRunner): void {
  program
    .command('sql')
    .description(
      'run SQL on a database, statement by statement (a transaction block in one request)',
    )
    .argument('[sql]', 'the SQL text (or --file)')
    .requiredOption('--db <id>', 'the database id')
    .option('--file <file>', 'read the SQL from FILE (- for standard input)')
    .addOption(new Option('--csv', 'CSV with a header row').conflicts(['json', 'table']))
    .addOption(
      new Option(
        '--json',
        'a statement as an array of row objects ({command, rowCount} when it returns no ' +
          'rows); several statements as an array of those, one entry per statement',
      ).conflicts(['table']),
    )
    .option('--table', 'an aligned (Markdown) table (the default)')
    .option(
      '--max-rows <n>',
      `rows per statement, at most ${SQL_MAX_ROWS}`,
      parsePositiveInt,
      DEFAULT_MAX_ROWS,
    )
    .option('--confirm-write', 'confirm writes (needed on a protected profile)')
    .option('--read-only', 'refuse anything not proven read-only')
    .action((text: string | undefined, options: SqlOptions, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        if (options.maxRows > SQL_MAX_ROWS) {
          throw CliError.usage(`--max-rows is at most ${SQL_MAX_ROWS}`)
        }
        const sql = await sqlTextOf(text, options.file)
        // Split where PostgreSQL's own parser does (a BEGIN ATOMIC body whole), as main judges it.
        await loadPgParser()
        const split = planSqlLoaded(sql, 'run').statements
        const statements = split.map((statement) => statement.text)
        if (statements.length === 0) throw CliError.usage('no SQL statement to run')
        const format: SqlFormat = options.csv ? 'csv' : options.json ? 'json' : 'table'
        // JSON goes out as the console's writer made it (int8 and numeric exact, never a float).
        const jsonTexts: string[] = []
        // A transaction block goes whole (sql.runBlock), as the console's Run all sends it.
        for (const group of groupTransactionBlocks(split)) {
          const members = statements.slice(group.from, group.to)
          let metas: (SqlResultMeta | null)[] | null = null
          if (group.block) {
            const target = await targetOf(session, options)
            const answer = await session.whileRunning(abandon(session, target.runId), () =>
              session.call('sql.runBlock', {
                ...target,
                statements: members,
                maxRows: options.maxRows,
              }),
            )
            if ('results' in answer) metas = answer.results
          }
          for (const [offset, member] of members.entries()) {
            const meta = metas
              ? (metas[offset] ?? null)
              : await runStatement(session, await targetOf(session, options), member, options)
            if (meta === null) {
              note(
                `${commandWord(member)}: no result (the service answered only its block's last one)`,
              )
              continue
            }
            const json = await printResult(session, meta, options, format)
            if (json !== null) jsonTexts.push(json)
          }
        }
        if (format === 'json') {
          writeOut(jsonTexts.length === 1 ? (jsonTexts[0] ?? '') : `[${jsonTexts.join(',')}]`)
        }
      }),
    )
}

async function sqlTextOf(text: string | undefined, file: string | undefined): Promise<string> {
  if (text !== undefined && file !== undefined)
    throw CliError.usage('give the SQL or --file, not both')
  if (text !== undefined) return text
  if (file === undefined) throw CliError.usage('give the SQL as an argument or with --file')
  const source = file === '-' ? '/dev/stdin' : file
  return readFile(source, 'utf8').catch((error: unknown) => {
    throw CliError.usage(`Cannot read ${file}: ${(error as Error).message}`)
  })
}

/** Where a statement runs and how it is guarded. */
async function targetOf(session: DeskSession, options: SqlOptions) {
  return {
    profileId: await session.profileIdToUse(),
    databaseId: options.db,
    // One tab per request: nothing of the CLI's shows among the app's editor tabs.
    tabId: randomUUID(),
    runId: randomUUID(),
    readOnly: options.readOnly === true,
    confirmedWrite: options.confirmWrite === true,
  }
}

type Target = Awaited<ReturnType<typeof targetOf>>

/** One statement through `sql.run`; Ctrl-C meanwhile abandons it (see `abandon`). */
function runStatement(session: DeskSession, target: Target, sql: string, options: SqlOptions) {
  return session.whileRunning(abandon(session, target.runId), () =>
    session.call('sql.run', { ...target, sql, maxRows: options.maxRows }),
  )
}

/**
 * What Ctrl-C does to a statement on its way: its request is aborted, and the user is told that
 * the service, which has no cancel, may still finish it (a write may yet be committed).
 */
function abandon(session: DeskSession, runId: string) {
  return async () => {
    const { cancelled } = await session.call('sql.cancel', { runId })
    return cancelled
      ? 'the statement was abandoned, but the service has no cancel: it may still finish it'
      : null
  }
}

function commandWord(statement: string): string {
  return statement.trim().split(/\s+/, 1)[0]?.toUpperCase() ?? 'statement'
}

/** Prints a statement's rows (CSV, table) or returns them as JSON text; releases the result. */
async function printResult(
  session: DeskSession,
  meta: SqlResultMeta,
  options: SqlOptions,
  format: SqlFormat,
): Promise<string | null> {
  try {
    for (const line of meta.notes) note(line)
    // A cut at the service's size limit is said by its note (above): --max-rows is not why.
    if (meta.truncated && meta.truncatedBy !== 'size') {
      note(`Only the first ${meta.rows} rows (--max-rows ${options.maxRows})`)
    }
    if (meta.fields.length === 0) {
      // A statement without rows (UPDATE, CREATE ...): its command tag and count.
      const summary = { command: meta.command, rowCount: meta.rowCount }
      if (format === 'json') return JSON.stringify(summary)
      note(`${meta.command}${meta.rowCount === null ? '' : ` ${meta.rowCount}`}`)
      return null
    }
    const copyFormat = format === 'table' ? 'markdown' : format
    const copied = await session.call('sql.copy', {
      resultId: meta.resultId,
      format: copyFormat,
      headers: true,
    })
    if (format === 'json') return copied.text
    writeOut(copied.text)
    return null
  } finally {
    await session.call('sql.release', { resultIds: [meta.resultId] })
  }
}
