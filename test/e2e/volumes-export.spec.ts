import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { expect, test } from './support/fixtures'
import type { ExternalSandbox } from './support/processes'
import {
  announced,
  cutNextDownloads,
  downloadStats,
  exportCard,
  exportDestination,
  lastFinishedExport,
  runningExports,
  seededVolumes,
  sha256OfFile,
  startExport,
  useDownloadsFolder,
  withDownloadsFolder,
  type SeedVolume,
} from './support/volumes'
import { run } from '../support/tools'

/*
 * Volume export through the UI, web mode against the sandbox, with a volume of at least
 * 200 MiB (the seeded 1 GiB one): the file's SHA-256 is the service's and `tar -tzf` reads it;
 * a cancel midway leaves nothing in the folder; a download the sandbox cuts midway resumes and
 * ends with the right hash.
 */

const MIB = 1024 * 1024
// A gigabyte streamed, hashed and re-read by tar on two shared cores.
test.describe.configure({ timeout: 300_000 })

/** The percentage a progress line shows ("64.0 MiB of 1.00 GiB (6 %)"), or 0. */
function percentOf(text: string | null): number {
  const match = /\(([\d.]+) %\)/.exec(text ?? '')
  return match ? Number(match[1]) : 0
}

async function largeVolume(sandbox: ExternalSandbox): Promise<SeedVolume> {
  const volume = (await seededVolumes(sandbox)).find((item) => item.sizeBytes >= 200 * MIB)
  if (!volume) throw new Error('the sandbox seeds no volume of at least 200 MiB')
  return volume
}

/** The large volume and what op 15 announces for it (its SHA-256 above all). */
async function announcedLargeVolume(sandbox: ExternalSandbox) {
  const volume = await largeVolume(sandbox)
  return { volume, expected: await announced(sandbox, volume) }
}

test('a large volume exports through the UI: the SHA-256 matches and tar lists it', async ({
  page,
  staging: { sandbox },
}) => {
  await withDownloadsFolder(page, async (downloads) => {
    const { volume, expected } = await announcedLargeVolume(sandbox)

    await startExport(page, volume)
    // While it runs: bytes of the total, a rate and the time left.
    const running = exportCard(runningExports(page), volume)
    await expect(running.getByTestId('transfer-bytes')).toContainText(/of 1\.00 GiB/)
    await expect(running).toContainText(/\/s/)
    await expect(running).toContainText(/left/)

    const done = lastFinishedExport(page)
    await expect(done).toHaveAttribute('data-state', 'completed', { timeout: 240_000 })
    const destination = await exportDestination(done)
    expect(destination).toBe(path.join(downloads.dir, `${volume.name}.tar.gz`))
    await expect(done.getByTestId('volume-sha256')).toContainText(expected.sha256)

    expect(await sha256OfFile(destination)).toBe(expected.sha256)
    const listing = await run('tar', ['-tzf', destination])
    expect(listing.code, listing.stderr).toBe(0)
    expect(listing.stdout.trim().split('\n').length).toBeGreaterThan(0)
    expect(await readdir(downloads.dir)).toEqual([`${volume.name}.tar.gz`])
  })
})

test('cancelling a large export midway leaves no file', async ({ page, staging: { sandbox } }) => {
  await withDownloadsFolder(page, async (downloads) => {
    const volume = await largeVolume(sandbox)
    // The sandbox hashes the archive on its first op 15; done here, the app's call is quick.
    await announced(sandbox, volume)
    await startExport(page, volume)
    const running = runningExports(page)
    // Midway: well past the start, well before the end.
    const bytes = running.getByTestId('transfer-bytes')
    await expect
      .poll(async () => percentOf(await bytes.textContent()), { timeout: 120_000 })
      .toBeGreaterThanOrEqual(5)
    await running.getByRole('button', { name: /^Cancel the export/ }).click()

    const done = lastFinishedExport(page)
    await expect(done).toHaveAttribute('data-state', 'cancelled')
    await expect(done).toContainText('Cancelled')
    // Neither the archive nor its temp file.
    expect(await readdir(downloads.dir)).toEqual([])
  })
})

test('a download cut midway resumes with Range and ends with the right hash', async ({
  page,
  staging: { sandbox },
}) => {
  // The folder only keeps the resumed archive away from the others; the hash is what counts.
  await withDownloadsFolder(page, async () => {
    const { volume, expected } = await announcedLargeVolume(sandbox)
    await cutNextDownloads(sandbox, 300 * MIB)

    await startExport(page, volume)
    await expect(runningExports(page).getByTestId('transfer-resumes')).toContainText('Resumed 1×', {
      timeout: 120_000,
    })
    const done = lastFinishedExport(page)
    await expect(done).toHaveAttribute('data-state', 'completed', { timeout: 240_000 })
    const destination = await exportDestination(done)
    expect(await sha256OfFile(destination)).toBe(expected.sha256)
    // One cut answer, then the rest as a 206: nothing was downloaded twice.
    const stats = await downloadStats(sandbox)
    expect(stats.served).toEqual({ full: 0, partial: 1, cut: 1 })
  })
})

test('an unwritable downloads folder is a clear error on the screen', async ({
  page,
  staging: { sandbox },
}) => {
  const downloads = await useDownloadsFolder(page)
  const volume = (await seededVolumes(sandbox)).find((item) => item.name === 'grafana-data')
  if (!volume) throw new Error('no grafana-data volume in the seed')
  // The folder goes away after it was chosen (an unplugged disk, a deleted folder).
  await rm(downloads.dir, { recursive: true, force: true })
  await startExport(page, volume)
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('Could not export the volume')
  await expect(alert).toContainText('NOT_WRITABLE')
  await expect(alert).toContainText(`The folder ${downloads.dir} does not exist`)
  // The failed attempt is in the transfers log too.
  const failed = lastFinishedExport(page)
  await expect(failed).toHaveAttribute('data-state', 'failed')
  await expect(failed).toContainText('NOT_WRITABLE')
})
