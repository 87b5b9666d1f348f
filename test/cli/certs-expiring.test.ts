import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../src/sandbox'
import type { CertificateRow, ChannelOutput, Profile } from '../../src/shared/bridge'
import type { ExpiringList } from '../../src/shared/bridge/channels/overview'
import { daysLeft, notAfterMs } from '../../src/shared/certificate-expiry'
import { openTestDesk, type TestDesk } from '../support/desk'
import { readCsv, useCliHome } from './support'

/*
 * `infradesk certs list --expiring N` and the app's Expiring list agree: the
 * same certificates in the same order (expired and system ones included, soonest first), each
 * with the days left the screen and the CSV say. The app's list is the desk's own (SQLite over
 * the cache), the CLI's is its own walk of op 16: two readings of one sandbox. Needs a keychain:
 * `node scripts/with-keyring.mjs npx vitest run test/cli/certs-expiring.test.ts`.
 */

let sandbox: RunningSandbox
let desk: TestDesk
let profile: Profile
const { cli } = useCliHome('cli-expiring', { secrets: () => [sandbox.tokens.admin] })

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  desk = await openTestDesk('cli-expiring')
  profile = await desk.addProfile(sandbox, { name: 'Seed' })
  await desk.value<ChannelOutput<'certificates.refresh'>>('certificates.refresh', {
    profileId: profile.id,
    filter: { showSystem: true },
  })
}, 180_000)

afterAll(async () => {
  await desk?.close()
  await sandbox?.close()
})

async function cliExpiring(days: string) {
  return cli(['--url', sandbox.url, 'certs', 'list', '--expiring', days, '--csv'], {
    env: { INFRADESK_TOKEN: sandbox.tokens.admin },
  })
}

describe('certs list --expiring', () => {
  it.each([30, 7, 365])('lists the rows of the app’s Expiring list for %i days', async (days) => {
    const app = await desk.value<ExpiringList>('overview.expiring', { days })
    const run = await cliExpiring(String(days))
    expect(run.code, run.stderr).toBe(0)
    const [header, ...rows] = readCsv(run.stdout)
    const idAt = header?.indexOf('ID') ?? -1
    const leftAt = header?.indexOf('DAYS LEFT') ?? -1
    expect(leftAt).toBe(0)
    const appRows: CertificateRow[] = app.items.map((item) => item.row)
    expect(app.total).toBe(appRows.length)
    expect(rows.map((row) => row[idAt])).toEqual(appRows.map((row) => row.id))
    const now = Date.now()
    rows.forEach((row, index) => {
      const end = notAfterMs(appRows[index]?.notAfter)
      expect(end).not.toBeNull()
      // Within a minute of the CLI's clock: a boundary crossed in between is not expected.
      expect(Number(row[leftAt])).toBe(daysLeft(end as number, now))
    })
  })

  it('includes expired ones, and refuses 0, -5 and 5000 days with the app’s range', async () => {
    const app = await desk.value<ExpiringList>('overview.expiring', { days: 30 })
    expect(app.items.some((item) => (notAfterMs(item.row.notAfter) ?? 0) <= Date.now())).toBe(true)
    for (const days of ['0', '-5', '5000', '1.5']) {
      const run = await cliExpiring(days)
      expect(run.code).toBe(2)
      expect(run.stderr).toContain('1 to 3650')
    }
  })
})
