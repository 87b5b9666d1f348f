import { afterAll, beforeAll } from 'vitest'
import type { DeskDeps } from '../../src/main/desk'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox, SeedIds } from '../../src/sandbox'
import type { Profile } from '../../src/shared/bridge'
import { openTestDesk, type ProfileFields, type TestDesk, type TestDeskSetup } from './desk'

/*
 * The world most main-process tests of a feature need, all real: a sandbox of the service over
 * HTTP, a desk over the real keychain (so the file runs under scripts/with-keyring.mjs) and one
 * profile on the sandbox, its token verified and stored.
 */

export interface SandboxDesk {
  sandbox: RunningSandbox
  seed: SeedIds
  desk: TestDesk
  profile: Profile
}

export interface SandboxDeskOptions {
  /** Added to the desk's dependencies (its request timeout is 15 s unless told). */
  deps?: Partial<DeskDeps>
  /** The data folder as the desk first finds it, given the sandbox (an earlier run's log, say). */
  setup?: (sandbox: RunningSandbox) => TestDeskSetup
  /** The profile's fields beyond the defaults of `TestDesk.addProfile`. */
  profile?: Partial<ProfileFields>
}

export const KEYRING_HINT = 'Run under node scripts/with-keyring.mjs (a Secret Service is needed)'

/**
 * Opens the world before the calling file's tests and closes it after them (the profile's
 * keychain item with it). Its fields are set once the file's `beforeAll` has run: read them
 * inside tests and hooks, never at the top of the file.
 */
export function useSandboxDesk(name: string, options: SandboxDeskOptions = {}): SandboxDesk {
  // Filled by the hook below, before any test of the file reads it.
  const world = {} as SandboxDesk
  beforeAll(async () => {
    if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(KEYRING_HINT)
    world.sandbox = await startSandbox()
    world.seed = world.sandbox.seed()
    world.desk = await openTestDesk(
      name,
      { requestTimeoutMs: 15_000, ...options.deps },
      options.setup?.(world.sandbox),
    )
    world.profile = await world.desk.addProfile(world.sandbox, options.profile)
  })
  afterAll(async () => {
    await world.desk?.close([world.profile?.id ?? 'none'])
    await world.sandbox?.close()
  })
  return world
}
