import { randomUUID } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { createDesk, type Desk, type DeskDeps } from '../../src/main/desk'
import { createVault, type TokenVault } from '../../src/main/vault'
import type { Profile, Result } from '../../src/shared/bridge'
import { fakeClock, fakePower } from './fake-clock'
import { assertSameOverBothTransports, transportMismatch } from './serialisation-guard'
import { makeTempDir, type TempDir } from './tools'

/**
 * A desk in a temporary data folder, with the real keychain under a keychain service of this
 * run only, and typed helpers to call it through the bridge as the renderer does.
 */
export interface TestDesk {
  /** The desk now open (a new one after `reopen`). */
  desk: Desk
  temp: TempDir
  dataDir: string
  downloads: string
  vault: TokenVault
  /** The keychain service of this desk's vault (what `secret-tool` looks under). */
  keychainService: string
  /** Every event the desks pushed, oldest first. */
  events: Array<{ event: string; payload: unknown }>
  /** Every Result and event payload the bridge carried, as JSON: for checks that nothing leaks. */
  carried: string[]
  call(channel: string, input?: unknown): Promise<Result<unknown>>
  /** The call's value; throws with the error when it fails. */
  value<T = unknown>(channel: string, input?: unknown): Promise<T>
  /** The call's error; throws when it succeeds. */
  failure(
    channel: string,
    input?: unknown,
  ): Promise<{ code: string; message: string; details?: unknown }>
  /** A service profile for `service` (a sandbox, say), its admin token verified and stored. */
  addProfile(
    service: { url: string; tokens: { admin: string } },
    fields?: Partial<ProfileFields>,
  ): Promise<Profile>
  /** Closes the desk and opens another over the same folder and keychain: a restart of the app. */
  reopen(): Promise<Desk>
  /** Closes the desk, removes this run's keychain items and the folder. */
  close(profileIds?: string[]): Promise<void>
}

export interface ProfileFields {
  name: string
  baseUrl: string
  color: string
  protected: boolean
  token: string
  /** Keep the token in memory only, never in the keychain. */
  sessionOnly: boolean
}

/** What is on disk before the desk first opens. */
export interface TestDeskSetup {
  /** The data folder, relative to the temporary folder (`data` unless told). */
  dataFolder?: string
  /** Writes into the data folder before the desk opens: what an earlier run or the user left. */
  beforeOpen?(dataDir: string): void | Promise<void>
}

/**
 * `deps` adds to or overrides the desk's dependencies (a proxy environment, another version,
 * say); `setup` shapes the data folder the desk first opens.
 */
export async function openTestDesk(
  name: string,
  deps: Partial<DeskDeps> = {},
  setup: TestDeskSetup = {},
): Promise<TestDesk> {
  const temp = await makeTempDir(`infradesk-${name}`)
  const dataDir = path.join(temp.dir, setup.dataFolder ?? 'data')
  const downloads = path.join(temp.dir, 'downloads')
  await mkdir(downloads, { recursive: true })
  const keychainService = `Infradesk-${name}-test-${randomUUID()}`
  const vault = createVault({ service: keychainService })
  const events: TestDesk['events'] = []
  const carried: string[] = []
  // Events that would not arrive the same over IPC and web mode (./serialisation-guard.ts): the
  // desk's emitter swallows a listener's throw, so they are reported by the next call or close.
  const eventMismatches: string[] = []
  const reportEventMismatches = () => {
    if (eventMismatches.length > 0) throw new Error(eventMismatches.join('\n'))
  }
  const open = async () => {
    const opened = await createDesk({
      dataDir,
      mode: 'web',
      openExternal: async () => undefined,
      vault,
      version: '0.0.0-test',
      requestTimeoutMs: 60_000,
      restoreSandbox: false,
      defaultDownloadsDir: downloads,
      // Background refresh on a clock that never moves: a profile added is never read behind a
      // test's back (it would be at once, being unread). Tests of it pass their own clock.
      backgroundRefresh: { clock: fakeClock(), power: fakePower() },
      ...deps,
    })
    opened.onEvent((event, payload) => {
      const mismatch = transportMismatch(payload)
      if (mismatch !== null) eventMismatches.push(`the ${event} event ${mismatch}`)
      events.push({ event, payload })
      carried.push(JSON.stringify(payload))
    })
    return opened
  }
  let first: Desk
  try {
    await setup.beforeOpen?.(dataDir)
    first = await open()
  } catch (error) {
    // No harness to close yet: leave no folder behind a desk that never opened.
    await temp.remove()
    throw error
  }
  const harness: TestDesk = {
    desk: first,
    temp,
    dataDir,
    downloads,
    vault,
    keychainService,
    events,
    carried,
    async call(channel: string, input: unknown = {}) {
      const result = await harness.desk.dispatch(channel, input)
      assertSameOverBothTransports(`the answer to ${channel}`, result)
      reportEventMismatches()
      carried.push(JSON.stringify(result))
      return result
    },
    async value<T>(channel: string, input: unknown = {}) {
      const result = await harness.call(channel, input)
      if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
      return result.value as T
    },
    async failure(channel: string, input: unknown = {}) {
      const result = await harness.call(channel, input)
      if (result.ok) throw new Error(`${channel} succeeded but should have failed`)
      return result.error
    },
    addProfile(service, fields = {}) {
      return harness.value<Profile>('profiles.add', {
        name: 'Staging',
        baseUrl: service.url,
        color: '#16a34a',
        protected: false,
        token: service.tokens.admin,
        ...fields,
      })
    },
    async reopen() {
      await harness.desk.close()
      harness.desk = await open()
      return harness.desk
    },
    async close(profileIds = []) {
      await harness.desk.close()
      for (const id of profileIds) await vault.delete(id).catch(() => undefined)
      await temp.remove()
      reportEventMismatches()
    },
  }
  return harness
}
