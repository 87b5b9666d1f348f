import { randomUUID } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { createDesk, type Desk, type DeskDeps } from '../../src/main/desk'
import { createVault, type TokenVault } from '../../src/main/vault'
import type { Result } from '../../src/shared/bridge'
import { makeTempDir, type TempDir } from './tools'

/**
 * A desk in a temporary data folder, with the real keychain under a keychain service of this
 * run only, and typed helpers to call it through the bridge as the renderer does.
 */
export interface TestDesk {
  desk: Desk
  temp: TempDir
  dataDir: string
  downloads: string
  vault: TokenVault
  call(channel: string, input?: unknown): Promise<Result<unknown>>
  /** The call's value; throws with the error when it fails. */
  value<T = unknown>(channel: string, input?: unknown): Promise<T>
  /** The call's error; throws when it succeeds. */
  failure(
    channel: string,
    input?: unknown,
  ): Promise<{ code: string; message: string; details?: unknown }>
  /** Closes the desk, removes this run's keychain items and the folder. */
  close(profileIds?: string[]): Promise<void>
}

/** `deps` adds to or overrides the desk's dependencies (a proxy environment, say). */
export async function openTestDesk(name: string, deps: Partial<DeskDeps> = {}): Promise<TestDesk> {
  const temp = await makeTempDir(`infradesk-${name}`)
  const dataDir = path.join(temp.dir, 'data')
  const downloads = path.join(temp.dir, 'downloads')
  await mkdir(downloads, { recursive: true })
  const vault = createVault({ service: `Infradesk-${name}-test-${randomUUID()}` })
  const desk = await createDesk({
    dataDir,
    mode: 'web',
    openExternal: async () => undefined,
    vault,
    version: '0.0.0-test',
    requestTimeoutMs: 60_000,
    restoreSandbox: false,
    defaultDownloadsDir: downloads,
    ...deps,
  })
  const call = (channel: string, input: unknown = {}) => desk.dispatch(channel, input)
  return {
    desk,
    temp,
    dataDir,
    downloads,
    vault,
    call,
    async value<T>(channel: string, input: unknown = {}) {
      const result = await call(channel, input)
      if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
      return result.value as T
    },
    async failure(channel: string, input: unknown = {}) {
      const result = await call(channel, input)
      if (result.ok) throw new Error(`${channel} succeeded but should have failed`)
      return result.error
    },
    async close(profileIds = []) {
      await desk.close()
      for (const id of profileIds) await vault.delete(id).catch(() => undefined)
      await temp.remove()
    },
  }
}
