import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { run } from '../support/tools'
import { expect, test } from './support/fixtures'
import {
  exportDestination,
  lastFinishedExport,
  seededVolume,
  sha256OfFile,
  startExport,
  withDownloadsFolder,
} from './support/volumes'

/*
 * Volume export against a real deployment's answer (the `gateway` project): op 15 sends the
 * `.tar.gz` itself (`application/gzip`), no link, no announced size or digest. The app saves the
 * very bytes, named `<volume>.tar.gz`, and shows their size and SHA-256; `tar` reads the file.
 */

test('a volume whose export is the raw .tar.gz downloads: size and SHA-256 shown, tar lists it', async ({
  page,
  staging: { sandbox },
}) => {
  await withDownloadsFolder(page, async (downloads) => {
    const volume = await seededVolume(sandbox, 'shop-uploads')
    // What the service sends, asked straight: the archive itself.
    const response = await fetch(
      `${sandbox.url}/api/docker/nodes/${volume.nodeId}/volumes/${volume.name}/export`,
      { headers: { authorization: `Bearer ${sandbox.tokens.admin}` } },
    )
    expect(response.headers.get('content-type')).toBe('application/gzip')
    const sent = Buffer.from(await response.arrayBuffer())
    const sha256 = createHash('sha256').update(sent).digest('hex')

    await startExport(page, volume)
    const done = lastFinishedExport(page)
    await expect(done).toHaveAttribute('data-state', 'completed', { timeout: 120_000 })
    const destination = await exportDestination(done)
    expect(destination).toBe(path.join(downloads.dir, `${volume.name}.tar.gz`))
    await expect(done.getByTestId('volume-sha256')).toContainText(sha256)
    // The raw archive announced no digest: the screen does not claim one matched.
    await expect(done.getByTestId('volume-sha256')).toContainText('the service announced none')
    await expect(done).toContainText(/\d(\.\d+)? (KiB|MiB)/)
    expect(await sha256OfFile(destination)).toBe(sha256)
    const listing = await run('tar', ['-tzf', destination])
    expect(listing.code, listing.stderr).toBe(0)
    expect(await readdir(downloads.dir)).toEqual([`${volume.name}.tar.gz`])
  })
})
