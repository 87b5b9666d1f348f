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
    expect(view.systemCas).toMatchObject({ count: report.count, problem: report.problem })
    if (report.problem === null) expect(view.systemCas?.count).toBeGreaterThan(0)
  })

  it('says what NODE_EXTRA_CA_CERTS added: plain Node (this process) honours it', async () => {
    const view = await desk.value<ProfileNetworkView>('profiles.network', { id: profile.id })
    // The variable of the process running the tests, set or not (test/cli/extra-ca-certs.test.ts
    // sets it to a private CA for a child and reaches an HTTPS sandbox with it).
    const file = process.env['NODE_EXTRA_CA_CERTS'] || null
    expect(view.systemCas?.environment?.file ?? null).toBe(file)
    if (file === null) expect(view.systemCas?.environment).toMatchObject({ count: 0 })
    else expect(view.systemCas?.environment?.count).toBeGreaterThan(0)
  })
})
