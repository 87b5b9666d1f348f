import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDesk } from '../../src/main/desk'
import type { Desk } from '../../src/main/desk'
import type { Transfer } from '../../src/shared/bridge'
import { openTestDesk } from '../support/desk'
import type { TestDesk } from '../support/desk'
import { sandboxForThisFile } from '../support/sandbox-process'

/*
 * The CLI opens the desk over the app's data folder while the app may be running. The app's
 * start marks transfers an earlier run left `running` as interrupted; the CLI's open must not,
 * or a download still going in the app would show as interrupted there.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: false })
let app: TestDesk
const opened: Desk[] = []
const profileIds: string[] = []

beforeAll(async () => {
  app = await openTestDesk('beside-app')
})

afterAll(async () => {
  for (const desk of opened) await desk.close()
  await app?.close(profileIds)
})

async function openBeside(markInterruptedTransfers?: boolean): Promise<Desk> {
  const desk = await createDesk({
    dataDir: app.dataDir,
    mode: 'web',
    openExternal: async () => undefined,
    vault: app.vault,
    version: '0.0.0-test',
    restoreSandbox: false,
    ...(markInterruptedTransfers === undefined ? {} : { markInterruptedTransfers }),
  })
  opened.push(desk)
  return desk
}

async function stateOf(transferId: string): Promise<string | undefined> {
  const listed = await app.value<Transfer[]>('transfers.list', {})
  return listed.find((transfer) => transfer.id === transferId)?.state
}

it("leaves the running app's transfers running; an app start still marks them", async () => {
  const profile = await app.addProfile(sandbox)
  profileIds.push(profile.id)
  // The largest seeded volume: still downloading while the other desks open.
  const volume = [...sandbox.seed.volumes].sort((a, b) => b.sizeBytes - a.sizeBytes)[0]
  if (volume === undefined) throw new Error('no seeded volume')
  const started = await app.value<Transfer>('volumes.export', {
    profileId: profile.id,
    nodeId: volume.nodeId,
    name: volume.name,
  })
  expect(await stateOf(started.id)).toBe('running')

  await openBeside(false)
  expect(await stateOf(started.id)).toBe('running')

  await openBeside()
  expect(await stateOf(started.id)).toBe('interrupted')
  await app.value('transfers.cancel', { transferId: started.id })
})
