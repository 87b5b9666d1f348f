/*
 * `npm run sql-corpus [-- --database-url postgres://…] [--files N]`: PostgreSQL's regression
 * SQL (bench/sql-corpus, 217 files) through the SQL guard (src/main/sql-guard) against a real
 * PostgreSQL, and three figures, written to bench/results/sql-guard.json:
 *
 * - read statements refused by PostgreSQL (target 0): statements the guard calls read that
 *   PostgreSQL refuses inside a READ ONLY transaction as writes (SQLSTATE 25006);
 * - over-blocked share (target ≤ 0.10): of the statements PostgreSQL runs inside a READ ONLY
 *   transaction, the share the guard calls write or transaction control;
 * - statement boundaries unlike PostgreSQL's (target 0): statements the app's splitter (Run
 *   all, the CLI, the parameter filler) draws differently from PostgreSQL's parser, over the
 *   files the parser reads whole; the hand-written lexer's count is printed beside it.
 *
 * Each file runs in a database of its own, statement by statement, as the regression suite
 * runs it: every statement is first tried inside `BEGIN READ ONLY … ROLLBACK`, then, when it
 * may change state (the guard calls it a write, PostgreSQL refused it read-only, or it sets
 * session state), run for real so the statements after it see what they expect. Without
 * `--database-url` (or INFRADESK_TEST_DATABASE_URL) a private cluster is started in a temp
 * folder, as .ci/run does (needs root and Debian's postgresql). Slow (minutes): not in CI.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, chownSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { analyzeSqlLoaded, loadPgParser, splitSqlLoaded, verdictOf } from '../src/main/sql-guard'
import { splitStatements } from '../src/shared/sql/splitter'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CORPUS = path.join(root, 'bench', 'sql-corpus', 'postgres-regress.tar.gz')
const RESULT = path.join(root, 'bench', 'results', 'sql-guard.json')
/** Commands whose effect lives in the session, so a read-only trial alone would lose it. */
const SESSION_STATE = /^(SET|RESET|PREPARE|DEALLOCATE|DECLARE|LISTEN|DISCARD)\b/i
const EXAMPLES = 20
/** How many kinds of over-blocking the result lists, most frequent first. */
const OVER_BLOCKED_KINDS = 60
/**
 * Statement kinds a guard may call read. The others (INSERT, COPY FROM, VACUUM, DDL ...) are
 * writes by nature: PostgreSQL runs them in a READ ONLY transaction only on temporary objects,
 * so calling them writes is no over-blocking; they are counted apart.
 */
const READABLE_COMMANDS =
  /^(SELECT|EXPLAIN|SET|SHOW|DECLARE|FETCH|CLOSE|PREPARE|EXECUTE|DEALLOCATE)$/

interface Figures {
  files: number
  filesParsedWhole: number
  statements: number
  calledRead: number
  calledReadRanReadOnly: number
  readRefusedByPostgres: number
  acceptedReadOnly: number
  acceptedReadOnlyWritesToTemporaryObjects: number
  overBlocked: number
  overBlockedShare: number
  boundariesUnlikePostgres: number
  lexerBoundariesUnlikePostgres: number
  lexerStatementsCompared: number
}

function argValue(flag: string): string | undefined {
  const index = process.argv.indexOf(flag)
  return index === -1 ? undefined : process.argv[index + 1]
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** A throwaway cluster owned by the postgres user, as .ci/run starts one; stopped on exit. */
async function startPrivateCluster(): Promise<string> {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b))
  const bin = path.join('/usr/lib/postgresql', versions[versions.length - 1] ?? '', 'bin')
  const dir = mkdtempSync(path.join(tmpdir(), 'infradesk-corpus-pg-'))
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
  chownSync(dir, uid, 0)
  const port = await freePort()
  const asPostgres = (args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'ignore' })
  asPostgres([path.join(bin, 'initdb'), '-D', `${dir}/db`, '-A', 'trust', '-U', 'corpus'])
  asPostgres([
    path.join(bin, 'pg_ctl'),
    '-D',
    `${dir}/db`,
    '-l',
    `${dir}/server.log`,
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    'start',
  ])
  process.on('exit', () => {
    spawnSync('runuser', [
      '-u',
      'postgres',
      '--',
      path.join(bin, 'pg_ctl'),
      '-D',
      `${dir}/db`,
      '-m',
      'immediate',
      'stop',
    ])
    rmSync(dir, { recursive: true, force: true })
  })
  return `postgres://corpus@127.0.0.1:${port}/postgres`
}

/** psql's backslash commands are no SQL: their lines are blanked, keeping the rest in place. */
function withoutPsqlCommands(text: string): string {
  return text
    .split('\n')
    .map((line) => (/^\s*\\/.test(line) ? '' : line))
    .join('\n')
}

function sqlState(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : 'unknown'
}

async function main(): Promise<void> {
  const url =
    argValue('--database-url') ??
    process.env['INFRADESK_TEST_DATABASE_URL'] ??
    (await startPrivateCluster())
  const limit = Number(argValue('--files') ?? Infinity)
  const corpusDir = mkdtempSync(path.join(tmpdir(), 'infradesk-corpus-'))
  execFileSync('tar', ['-xzf', CORPUS, '-C', corpusDir])
  const sqlDir = path.join(corpusDir, 'postgres_regress')
  const files = readdirSync(sqlDir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .slice(0, limit)
  await loadPgParser()

  const figures: Figures = {
    files: files.length,
    filesParsedWhole: 0,
    statements: 0,
    calledRead: 0,
    calledReadRanReadOnly: 0,
    readRefusedByPostgres: 0,
    acceptedReadOnly: 0,
    acceptedReadOnlyWritesToTemporaryObjects: 0,
    overBlocked: 0,
    overBlockedShare: 0,
    boundariesUnlikePostgres: 0,
    lexerBoundariesUnlikePostgres: 0,
    lexerStatementsCompared: 0,
  }
  const refusedReads: string[] = []
  const overBlockedExamples = new Map<string, number>()

  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  const conformingStrings =
    (await admin.query<{ standard_conforming_strings: string }>('SHOW standard_conforming_strings'))
      .rows[0]?.standard_conforming_strings === 'on'
  const started = Date.now()
  for (const [index, file] of files.entries()) {
    const text = withoutPsqlCommands(readFileSync(path.join(sqlDir, file), 'utf8'))
    // As the app does: the database's standard_conforming_strings is learned once; a file that
    // sets it itself is read as if it were unknown.
    const options = {
      standardConformingStrings: conformingStrings && !/standard_conforming_strings/i.test(text),
    }
    const whole = analyzeSqlLoaded(text, options)
    const spans = splitSqlLoaded(text)
    if (whole.ok) {
      figures.filesParsedWhole += 1
      // The app's splitter is the guard's: compare it, and the old lexer, with the parse.
      const parsed = whole.statements.map((statement) => statement.text)
      const app = spans.map((span) => span.text)
      figures.boundariesUnlikePostgres += mismatches(app, parsed)
      const lexer = splitStatements(text).map((statement) => statement.text.trim())
      figures.lexerBoundariesUnlikePostgres += mismatches(lexer, parsed)
      figures.lexerStatementsCompared += parsed.length
    }
    const database = `corpus_${index}`
    await admin.query(`DROP DATABASE IF EXISTS ${database}`)
    await admin.query(`CREATE DATABASE ${database}`)
    const client = new pg.Client({ connectionString: withDatabase(url, database) })
    // A statement the server cannot run must not end the file's run.
    client.on('error', () => undefined)
    await client.connect()
    await client.query("SET statement_timeout = '5s'; SET lock_timeout = '2s'")
    for (const [position, span] of spans.entries()) {
      figures.statements += 1
      // A file the parser reads whole is judged as one editor's text (a PREPARE seen before its
      // EXECUTE); the others statement by statement.
      const judged = whole.ok ? whole.statements[position] : undefined
      const analysis = judged === undefined ? analyzeSqlLoaded(span.text, options) : null
      const verdict = judged?.verdict ?? verdictOf(analysis ?? analyzeSqlLoaded(span.text, options))
      if (verdict.kind === 'transaction') continue
      const command =
        judged?.command ?? (analysis?.ok ? (analysis.statements[0]?.command ?? '') : '')
      let readOnlyError: string | null = null
      try {
        await client.query('BEGIN READ ONLY')
        await client.query(span.text)
      } catch (error) {
        readOnlyError = sqlState(error)
      } finally {
        await client.query('ROLLBACK').catch(() => undefined)
      }
      if (verdict.kind === 'read') {
        figures.calledRead += 1
        if (readOnlyError === null || readOnlyError === '25006') figures.calledReadRanReadOnly += 1
        if (readOnlyError === '25006') {
          figures.readRefusedByPostgres += 1
          if (refusedReads.length < EXAMPLES)
            refusedReads.push(`${file}: ${span.text.slice(0, 200)}`)
        }
      }
      if (readOnlyError === null && !READABLE_COMMANDS.test(command)) {
        figures.acceptedReadOnlyWritesToTemporaryObjects += 1
      } else if (readOnlyError === null) {
        figures.acceptedReadOnly += 1
        if (verdict.kind !== 'read') {
          figures.overBlocked += 1
          const key = verdict.reason.slice(0, 100)
          overBlockedExamples.set(key, (overBlockedExamples.get(key) ?? 0) + 1)
        }
      }
      if (verdict.kind !== 'read' || readOnlyError !== null || SESSION_STATE.test(span.text)) {
        await client.query(span.text).catch(() => undefined)
      }
    }
    await client.end().catch(() => undefined)
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined)
    process.stdout.write(`\r${index + 1}/${files.length} files, ${figures.statements} statements`)
  }
  await admin.end()
  rmSync(corpusDir, { recursive: true, force: true })
  figures.overBlockedShare =
    figures.acceptedReadOnly === 0 ? 0 : round(figures.overBlocked / figures.acceptedReadOnly)

  const topOverBlocked = [...overBlockedExamples.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, OVER_BLOCKED_KINDS)
    .map(([reason, count]) => ({ reason, count }))
  const result = {
    name: 'sql-guard',
    recordedAt: new Date().toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
    server: (await serverVersion(url)) ?? 'unknown',
    targets: { readRefusedByPostgres: 0, overBlockedShare: 0.1, boundariesUnlikePostgres: 0 },
    figures,
    refusedReads,
    topOverBlocked,
  }
  writeFileSync(RESULT, `${JSON.stringify(result, null, 2)}\n`)
  console.log('\n')
  console.table({
    'read statements refused by PostgreSQL': { figure: figures.readRefusedByPostgres, target: 0 },
    'over-blocked share': { figure: figures.overBlockedShare, target: '≤ 0.10' },
    "statement boundaries unlike PostgreSQL's": {
      figure: figures.boundariesUnlikePostgres,
      target: 0,
    },
    "(the hand-written lexer's boundaries unlike PostgreSQL's)": {
      figure: figures.lexerBoundariesUnlikePostgres,
      target: '-',
    },
  })
  console.log(`written to ${path.relative(root, RESULT)}`)
}

/** Statements of `split` that are not among `parsed` (compared as texts, in order). */
function mismatches(split: readonly string[], parsed: readonly string[]): number {
  const remaining = new Map<string, number>()
  for (const text of parsed) remaining.set(text, (remaining.get(text) ?? 0) + 1)
  let unlike = 0
  for (const text of split) {
    const left = remaining.get(text) ?? 0
    if (left > 0) remaining.set(text, left - 1)
    else unlike += 1
  }
  return unlike
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

async function serverVersion(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    const answer = await client.query<{ server_version: string }>('SHOW server_version')
    return answer.rows[0]?.server_version ?? null
  } catch {
    return null
  } finally {
    await client.end().catch(() => undefined)
  }
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

main().catch((error: unknown) => {
  console.error(`sql-corpus: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
