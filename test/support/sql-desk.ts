import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox'
import type { ChannelOutput, Profile } from '../../src/shared/bridge'
import { openTestDesk, type ProfileFields, type TestDesk } from './desk'
import { startRecordingProxy, type RecordingProxy } from './recording-proxy'

/*
 * What every test file of the SQL console's main half starts from, all real: a sandbox (PGlite
 * unless told), a relay in front of it that records every request that reached the service, a
 * desk over the real keychain (run under scripts/with-keyring.mjs) and one profile on the relay.
 */

export type RunMeta = ChannelOutput<'sql.run'>

export interface SqlDesk {
  sandbox: RunningSandbox
  relay: RecordingProxy
  desk: TestDesk
  profile: Profile
  /** The seeded database the file's statements run on. */
  databaseId: string
  /** `sql.run`'s input for `sql` on the file's tab, database and row bound; `extra` overrides. */
  runInput(sql: string, extra?: Record<string, unknown>): Record<string, unknown>
  /** Runs `sql` through the bridge; throws with the error when it fails. */
  run(sql: string, extra?: Record<string, unknown>): Promise<RunMeta>
  /** The texts of op 5 (`/postgres/query`) the service received since the current test began. */
  statementsSent(): string[]
}

export interface SqlDeskOptions {
  sandbox?: SandboxOptions
  /** Which of the seed's PostgreSQL databases (0: the large demo one, 1: the small one). */
  database: number
  /** The profile's fields beyond the defaults of `TestDesk.addProfile`. */
  profile?: Partial<ProfileFields>
  tabId: string
  maxRows: number
}

/**
 * Opens the world before the calling file's tests and closes it after them; the relay's record
 * is emptied before each test. Its fields are set once the file's `beforeAll` has run: read them
 * inside tests and hooks, never at the top of the file.
 */
export function useSqlDesk(name: string, options: SqlDeskOptions): SqlDesk {
  const runInput = (sql: string, extra: Record<string, unknown> = {}) => ({
    profileId: world.profile.id,
    databaseId: world.databaseId,
    tabId: options.tabId,
    runId: randomUUID(),
    sql,
    maxRows: options.maxRows,
    ...extra,
  })
  const helpers: Partial<SqlDesk> = {
    runInput,
    run: (sql: string, extra?: Record<string, unknown>) =>
      world.desk.value<RunMeta>('sql.run', runInput(sql, extra)),
    statementsSent: () =>
      world.relay.received
        .filter((request) => request.path.endsWith('/postgres/query'))
        .map((request) => (JSON.parse(request.body) as { sql: string }).sql),
  }
  // Its other fields are filled by the hook below, before any test of the file reads them.
  const world = helpers as SqlDesk
  beforeAll(async () => {
    world.sandbox = await startSandbox({ port: 0, ...options.sandbox })
    world.relay = await startRecordingProxy(world.sandbox.url)
    world.databaseId = world.sandbox.seed().databases.postgres[options.database] as string
    world.desk = await openTestDesk(name)
    world.profile = await world.desk.addProfile(
      { url: world.relay.url, tokens: world.sandbox.tokens },
      options.profile,
    )
  })
  afterAll(async () => {
    await world.desk?.close([world.profile?.id ?? 'none'])
    await world.relay?.close()
    await world.sandbox?.close()
  })
  beforeEach(() => {
    if (world.relay) world.relay.received.length = 0
  })
  return world
}
