import path from 'node:path'
import { bridgeCall } from './support/bridge'
import { expect, test } from './support/fixtures'
import { clipboardText } from './support/page-reads'
import {
  announced,
  finishedExports,
  seededVolume,
  sha256OfFile,
  startExport,
  useDownloadsFolder,
} from './support/volumes'

/*
 * The Transfers panel: every export, from this run and earlier ones (the SQLite transfers log),
 * with name, profile, destination, size, hash, state and duration; web mode copies the path.
 * A name already taken in the downloads folder gets a number, never an overwrite.
 */

test('exports are listed with their file facts, survive a restart, and copy their path', async ({
  page,
  startApp,
  dataDir,
  staging: { sandbox, app: first },
}) => {
  const downloads = await useDownloadsFolder(page)
  try {
    const volume = await seededVolume(sandbox, 'backups-nightly')
    const expected = await announced(sandbox, volume)

    // Twice: the second takes a numbered name beside the first.
    for (const count of [1, 2]) {
      await startExport(page, volume)
      await expect(finishedExports(page).getByRole('article')).toHaveCount(count)
      await expect(finishedExports(page).getByRole('article').first()).toHaveAttribute(
        'data-state',
        'completed',
      )
    }
    const firstFile = path.join(downloads.dir, 'backups-nightly.tar.gz')
    const secondFile = path.join(downloads.dir, 'backups-nightly (2).tar.gz')
    expect(await sha256OfFile(firstFile)).toBe(expected.sha256)
    expect(await sha256OfFile(secondFile)).toBe(expected.sha256)

    const checkPanel = async () => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /^Transfers/ })
        .click()
      const table = page.getByRole('table', { name: 'Transfers' })
      const rows = table.getByRole('row').filter({ hasText: `${volume.nodeId} / ${volume.name}` })
      await expect(rows).toHaveCount(2)
      for (const [index, file] of [secondFile, firstFile].entries()) {
        const row = rows.nth(index)
        await expect(row).toContainText('Volume archive')
        await expect(row).toContainText('Staging')
        await expect(row.getByTestId('transfer-destination')).toHaveText(file)
        await expect(row).toContainText('8.00 MiB')
        await expect(row.getByTestId('transfer-sha256')).toHaveAttribute('title', expected.sha256)
        await expect(row).toContainText('Completed')
        await expect(row.getByRole('cell').nth(7)).toHaveText(/^\d+ s$/)
      }
      return rows
    }

    const rows = await checkPanel()
    // Web mode: no file manager to open, so the path is copied.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await rows
      .nth(0)
      .getByRole('button', { name: `Copy the path of ${volume.nodeId} / ${volume.name}` })
      .click()
    await expect(rows.nth(0).getByRole('status')).toHaveText('Path copied')
    const copied = await clipboardText(page)
    expect(copied).toBe(secondFile)
    // The log is in SQLite: the same rows through the bridge.
    const logged = await bridgeCall(page, 'transfers.list', {})
    expect(logged.filter((row) => row.kind === 'volume' && row.state === 'completed')).toHaveLength(
      2,
    )

    // An earlier run's exports are still listed after a restart.
    await page.goto('about:blank')
    await first.stop()
    const second = await startApp(dataDir)
    await page.goto(second.url)
    await checkPanel()
  } finally {
    await downloads.remove()
  }
})
