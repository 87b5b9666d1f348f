import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSystemTrust } from '../../src/main/shell/trust-report'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { Profile, ProfileNetworkView } from '../../src/shared/bridge'
import { openTestDesk } from '../support/desk'
import type { TestDesk } from '../support/desk'

/*
 * The profile's network view says how many certificate authorities the operating system's store
 * gave the connections, or why none (Electron's BoringSSL may read none, and an internal CA the
 * OS trusts would then silently not be trusted).
 */

let sandbox: RunningSandbox
let desk: TestDesk
let profile: Profile

beforeAll(async () => {
  sandbox = await startSandbox()
  desk = await openTestDesk('system-trust')
  profile = await desk.addProfile(sandbox)
})

afterAll(async () => {
  await desk?.close(profile ? [profile.id] : [])
  await sandbox?.close()
})

describe("the profile's network view", () => {
  it("says what the operating system's store gave, as the start-up log reads it", async () => {
    const view = await desk.value<ProfileNetworkView>('profiles.network', { id: profile.id })
    const report = readSystemTrust()
    expect(view.systemCas).toEqual({ count: report.count, problem: report.problem })
    if (report.problem === null) expect(view.systemCas?.count).toBeGreaterThan(0)
  })
})
