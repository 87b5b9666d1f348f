import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Locator, Page } from '@playwright/test'
import { volumeArchiveLabel } from '../../../src/shared/volume-archive-label'
import { bridgeCall } from './bridge'
import { test as base } from './fixtures'
import { sandboxCall } from './ops'
import type { ExternalSandbox } from './processes'
import { sandboxSeed, type SeedVolume } from './seed'

/*
 * What the volume and transfers specs share: the sandbox's seeded volumes and its test-only
 * download cut, the op 15 answer as the service gives it (for the expected SHA-256), a
 * downloads folder of the test's own, and streaming checks of the written file.
 */

export type { SeedVolume }

export async function seededVolumes(sandbox: ExternalSandbox): Promise<SeedVolume[]> {
  return (await sandboxSeed(sandbox)).volumes
}

/** The seeded volume called `name`. */
export async function seededVolume(sandbox: ExternalSandbox, name: string): Promise<SeedVolume> {
  const volume = (await seededVolumes(sandbox)).find((item) => item.name === name)
  if (!volume) throw new Error(`no ${name} volume in the seed`)
  return volume
}

/** What op 15 announces for a volume (size and SHA-256), asked straight from the service. */
export async function announced(
  sandbox: ExternalSandbox,
  volume: SeedVolume,
): Promise<{ sizeBytes: number; sha256: string }> {
  const { json } = await sandboxCall(
    sandbox,
    'GET',
    `/api/docker/nodes/${volume.nodeId}/volumes/${volume.name}/export`,
  )
  return (json as { data: { sizeBytes: number; sha256: string } }).data
}

/** The next `count` downloads stop after `afterBytes` bytes (`POST /__sandbox/downloads/cut`). */
export async function cutNextDownloads(
  sandbox: ExternalSandbox,
  afterBytes: number,
  count = 1,
): Promise<void> {
  const { status } = await sandboxCall(sandbox, 'POST', '/__sandbox/downloads/cut', {
    afterBytes,
    count,
  })
  if (status < 200 || status > 299) throw new Error(`cut refused: ${status}`)
}

export async function downloadStats(
  sandbox: ExternalSandbox,
): Promise<{ served: { full: number; partial: number; cut: number } }> {
  const { json } = await sandboxCall(sandbox, 'GET', '/__sandbox/downloads')
  return json as { served: { full: number; partial: number; cut: number } }
}

/** A fresh downloads folder, set in the app's settings through the bridge. */
export async function useDownloadsFolder(
  page: Page,
): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'infradesk-e2e-downloads-'))
  await bridgeCall(page, 'settings.update', { downloadsDir: dir })
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/**
 * `downloads`: `staging` with a fresh downloads folder set in the app, removed after the test
 * (pass or fail).
 */
export const test = base.extend<{ downloads: { dir: string } }>({
  downloads: async ({ page, staging: _connected }, use) => {
    const downloads = await useDownloadsFolder(page)
    try {
      await use(downloads)
    } finally {
      await downloads.remove()
    }
  },
})

/** Runs `steps` with a fresh downloads folder set in the app; the folder is removed after. */
export async function withDownloadsFolder(
  page: Page,
  steps: (downloads: { dir: string }) => Promise<void>,
): Promise<void> {
  const downloads = await useDownloadsFolder(page)
  try {
    await steps(downloads)
  } finally {
    await downloads.remove()
  }
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(file), hash)
  return hash.digest('hex')
}

/** Opens the Volume export screen from the navigation and fills in node and volume. */
export async function startExport(page: Page, volume: SeedVolume): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Volume export/ })
    .click()
  await page.getByLabel('Node id').fill(volume.nodeId)
  await page.getByLabel('Volume name').fill(volume.name)
  await page.getByRole('button', { name: 'Export volume' }).click()
}

export function exportCard(scope: Page | Locator, volume: SeedVolume) {
  return scope.getByRole('article', { name: `Export of ${volumeArchiveLabel(volume)}` })
}

export function finishedExports(page: Page) {
  return page.getByRole('region', { name: 'Finished exports' })
}

/** The card of the export that finished last: the finished list shows the newest first. */
export function lastFinishedExport(page: Page) {
  return finishedExports(page).getByRole('article').first()
}

/** The file a finished export's card says the archive was written to. */
export async function exportDestination(card: Locator): Promise<string> {
  return (await card.getByTestId('volume-destination').textContent())?.trim() ?? ''
}

export function runningExports(page: Page) {
  return page.getByRole('region', { name: 'Running exports' })
}
