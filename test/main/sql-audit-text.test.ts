import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { loadPgParser } from '../../src/main/sql-guard'
import * as pgParser from '../../src/main/sql-guard/pg-parser'
import { explainPrefixOf } from '../../src/main/sql-guard/plan'
import {
  REDACTED_LITERAL,
  SHAPE_NOTE,
  statementAuditText,
} from '../../src/main/sql/statement-audit-text'
import type { ActivityEntry } from '../../src/shared/bridge'
import { useSandboxDesk } from '../support/sandbox-desk'

/*
 * What the activity log keeps of an SQL statement (sql/statement-audit-text.ts): its text, so
 * an auditor reads what ran, with every secret PostgreSQL's parser locates redacted; a text the
 * parser refuses as its shape. Then the same through the bridge against the sandbox: the
 * activity list and both audit exports carry that text. Run under scripts/with-keyring.mjs.
 */

beforeAll(() => loadPgParser())

describe('statementAuditText', () => {
  it.each([
    [
      "select id from customers where email = 'ada@example.com' and id > 41 -- why\n",
      "select id from customers where email = 'ada@example.com' and id > 41",
    ],
    [
      "INSERT INTO notes (id, body)\n  VALUES (7, E'it\\'s here') /* x */;",
      "INSERT INTO notes (id, body) VALUES (7, E'it\\'s here') ;",
    ],
  ])('keeps the values of %s, drops its comments', (sql, logged) => {
    expect(statementAuditText(sql)).toBe(logged)
  })

  it.each([
    ["CREATE ROLE app LOGIN PASSWORD 'hunter2-role'", 'CREATE ROLE app LOGIN PASSWORD [redacted]'],
    [
      "ALTER USER app WITH ENCRYPTED PASSWORD $pw$hunter2-user$pw$ VALID UNTIL '2030-01-01'",
      "ALTER USER app WITH ENCRYPTED PASSWORD [redacted] VALID UNTIL '2030-01-01'",
    ],
    [
      "CREATE USER MAPPING FOR app SERVER remote OPTIONS (user 'bob', password 'hunter2-map')",
      "CREATE USER MAPPING FOR app SERVER remote OPTIONS (user 'bob', password [redacted])",
    ],
    [
      "ALTER USER MAPPING FOR app SERVER remote OPTIONS (SET password 'hunter2-alter')",
      'ALTER USER MAPPING FOR app SERVER remote OPTIONS (SET password [redacted])',
    ],
    [
      "CREATE SERVER remote FOREIGN DATA WRAPPER fdw OPTIONS (host 'db', sslkey 'hunter2-key')",
      "CREATE SERVER remote FOREIGN DATA WRAPPER fdw OPTIONS (host 'db', sslkey [redacted])",
    ],
    [
      "CREATE SUBSCRIPTION sub CONNECTION 'host=db user=rep sslmode=hunter2-sub' PUBLICATION pub",
      'CREATE SUBSCRIPTION sub CONNECTION [redacted] PUBLICATION pub',
    ],
    [
      "ALTER SUBSCRIPTION connection CONNECTION 'host=db dbname=hunter2-alter-sub'",
      'ALTER SUBSCRIPTION connection CONNECTION [redacted]',
    ],
    [
      "SELECT * FROM dblink('host=db user=hunter2-dblink', 'select 1') AS t(a int)",
      "SELECT * FROM dblink([redacted], 'select 1') AS t(a int)",
    ],
    [
      "SELECT public.dblink_connect('c', 'host=db user=' || 'hunter2-connect')",
      "SELECT public.dblink_connect('c', [redacted] || [redacted])",
    ],
    ["DO $$ BEGIN EXECUTE 'ALTER ROLE app PASSWORD ''hunter2-do'''; END $$", 'DO [redacted]'],
    [
      "INSERT INTO keys VALUES ('-----BEGIN PRIVATE KEY-----\nhunter2-pem\n-----END PRIVATE KEY-----')",
      'INSERT INTO keys VALUES ([redacted])',
    ],
  ])('redacts the secret of %s', (sql, logged) => {
    const text = statementAuditText(sql)
    expect(text).toBe(logged)
    expect(text).not.toContain('hunter2')
  })

  it('redacts in the statement that holds the secret, not its neighbour', () => {
    expect(statementAuditText("select 'a'; alter role app password 'hunter2'; select 'b'")).toBe(
      `select 'a'; alter role app password ${REDACTED_LITERAL}; select 'b'`,
    )
  })

  it('keeps a statement the parser refuses as its shape, and says so', () => {
    const text = statementAuditText("ALTER ROLE app PASSWORD 'hunter2' WITH WITH")
    expect(text).toBe(`ALTER ROLE app PASSWORD … WITH WITH ${SHAPE_NOTE}`)
    // No literal hidden: the shape is the text, and nothing is said of it.
    expect(statementAuditText('select * fromm t')).toBe('select * fromm t')
  })

  it("keeps the shape where a literal's end hangs on standard_conforming_strings", () => {
    // With the setting off, 'a\' continues: the parse (setting on) may not be what runs.
    const text = statementAuditText("alter role app password 'a\\' valid until 'hunter2'")
    expect(text).not.toContain('hunter2')
    expect(text).toContain(SHAPE_NOTE)
  })

  it('keeps 4,000 characters of a long statement and counts the rest', () => {
    const sql = `select ${Array.from({ length: 1000 }, (_, index) => `c${index}`).join(', ')} from t`
    const text = statementAuditText(sql)
    const cut = /… \((\d+) more characters\)$/.exec(text)
    expect(cut).not.toBeNull()
    const kept = text.slice(0, text.length - (cut?.[0].length ?? 0))
    expect(kept.length).toBeLessThanOrEqual(4000)
    expect(sql.startsWith(kept)).toBe(true)
    expect(kept.length + Number(cut?.[1])).toBe(sql.length)
  })
})

describe('through the bridge', () => {
  const world = useSandboxDesk('sql-audit-text')

  const send = (channel: 'sql.run' | 'sql.explain', sql: string, extra: { readOnly?: true } = {}) =>
    world.desk.call(channel, {
      profileId: world.profile.id,
      databaseId: world.seed.databases.postgres[0],
      tabId: 'audit-tab',
      runId: randomUUID(),
      sql,
      maxRows: 100,
      ...extra,
    })
  const run = (sql: string) => send('sql.run', sql)

  const logged = async () =>
    (await world.desk.value<ActivityEntry[]>('activity.list', { limit: 100 }))
      .filter((entry) => entry.operation === 'runPostgresQuery')
      .map((entry) => entry.message ?? '')

  it('the log and both exports carry the text, values in, secrets and the token out', async () => {
    await run("select id from customers where name = 'Ada Lovelace'")
    await run("insert into audit_probe values ('Grace Hopper')")
    await run("create role auditor login password 'hunter2-bridge'")
    await run(`select '${world.sandbox.tokens.admin}' as leaked`)
    const messages = await logged()
    expect(messages).toContainEqual(
      expect.stringContaining("select id from customers where name = 'Ada Lovelace'"),
    )
    expect(messages).toContainEqual(
      expect.stringContaining("insert into audit_probe values ('Grace Hopper')"),
    )
    expect(messages).toContainEqual(
      expect.stringContaining('create role auditor login password [redacted]'),
    )
    expect(messages).toContainEqual(expect.stringContaining("select '[redacted]' as leaked"))

    for (const format of ['csv', 'ndjson'] as const) {
      const saved = await world.desk.value<{ path: string | null }>('activity.export', { format })
      const text = readFileSync(saved.path ?? '', 'utf8')
      expect(text).toContain("where name = 'Ada Lovelace'")
      expect(text).toContain("values ('Grace Hopper')")
      expect(text).toContain('create role auditor login password [redacted]')
      expect(text).not.toContain('hunter2')
      expect(text).not.toContain(world.sandbox.tokens.admin)
    }
  })

  const sent = (channel: 'sql.run' | 'sql.explain', sql: string) =>
    channel === 'sql.explain' ? `${explainPrefixOf(false)}${sql}` : sql

  // The guard's parse is handed to the read-only wrap, the statement count and the audit text:
  // PostgreSQL's parser reads the text once per send (it read it twice, a read-only tab's four
  // times, before). Counted at the parser's entry point, for this very text and the user's
  // (sql.explain counted the user's statements with a parse of their own).
  it.each([
    ['a statement', 'sql.run', "select 'parsed once' as probe", {}],
    [
      'a read-only tab, its text wrapped',
      'sql.run',
      "select 'wrapped once' as probe",
      { readOnly: true },
    ],
    [
      "a backslash literal, judged again once the database's setting is known",
      'sql.run',
      "select 'back\\slash once' as probe",
      {},
    ],
    ['an EXPLAIN', 'sql.explain', "select 'explained once' as probe", {}],
  ] as const)('%s is parsed once, and logged', async (_, channel, sql, extra) => {
    const parse = vi.spyOn(pgParser, 'parseSql')
    try {
      await send(channel, sql, extra)
      const ofThisText = parse.mock.calls.filter(([text]) =>
        [sql, sent(channel, sql)].includes(text),
      )
      expect(ofThisText).toHaveLength(1)
    } finally {
      parse.mockRestore()
    }
    // Redacted from the guard's parse exactly as from a parse of its own.
    expect(await logged()).toContainEqual(
      expect.stringContaining(statementAuditText(sent(channel, sql))),
    )
  })
})
