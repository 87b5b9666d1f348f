import path from 'node:path'
import type { Page } from '@playwright/test'
import { bridgeCall } from './support/bridge'
import { expect } from './support/fixtures'
import { clipboardText } from './support/page-reads'
import { volumeArchiveLabel } from '../../src/shared/volume-archive-label'
import {
  announced,
  finishedExports,
  seededVolume,
  seededVolumes,
  sha256OfFile,
  startExport,
  test,
} from './support/volumes'

/**
 * What overflows on the Transfers screen: sideways scroll of the page or the
 * table's wrapper, a button whose text does not fit (cut to "Downloa"), a name cell taller than
 * two lines (a node UUID wrapping over eight), and a volume of `volumes` whose name is not shown
 * whole in its name (its text reaching past a box that clips it, as an ellipsis does).
 */
async function transfersOverflow(page: Page, volumes: string[] = []): Promise<string[]> {
  // A string: the node tsconfig has no DOM types, and this runs in the page.
  return page.evaluate<string[]>(`((volumes) => {
    const table = document.querySelector('table[aria-label="Transfers"]')
    if (table === null) return ['no Transfers table']
    const problems = []
    for (let element = table.parentElement; element !== null; element = element.parentElement) {
      if (element.scrollWidth > element.clientWidth + 1) {
        problems.push(element.tagName + '.' + element.className + ' scrolls sideways')
      }
    }
    const visible = table.closest('.table-wrap')?.getBoundingClientRect()
    for (const button of table.querySelectorAll('button')) {
      const box = button.getBoundingClientRect()
      if (button.scrollWidth > button.clientWidth + 1 || (visible && box.right > visible.right + 1)) {
        problems.push('button "' + button.textContent + '" is cut')
      }
    }
    for (const name of table.querySelectorAll('.transfer-label')) {
      const lines = name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight)
      if (lines > 2.2) problems.push('name "' + name.textContent + '" takes ' + lines.toFixed(1) + ' lines')
    }
    for (const volume of volumes) {
      let found = 0
      const texts = [...table.querySelectorAll('.transfer-label')].flatMap((name) => {
        const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT)
        const all = []
        for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) all.push(text)
        return all
      })
      for (const text of texts) {
        const at = text.data.indexOf(volume)
        if (at < 0) continue
        found += 1
        const range = document.createRange()
        range.setStart(text, at)
        range.setEnd(text, at + volume.length)
        const shown = range.getBoundingClientRect()
        for (let box = text.parentElement; box !== null && box !== document.body; box = box.parentElement) {
          if (getComputedStyle(box).overflowX === 'visible') continue
          const clip = box.getBoundingClientRect()
          if (shown.left < clip.left - 1 || shown.right > clip.right + 1) {
            problems.push('volume name "' + volume + '" is cut by ' + box.tagName + '.' + box.className)
            break
          }
        }
      }
      if (found === 0) problems.push('volume name "' + volume + '" is not in the table')
    }
    return problems
  })(${JSON.stringify(volumes)})`)
}

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
  downloads,
}) => {
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
    const rows = table.getByRole('row').filter({ hasText: volume.name })
    await expect(rows).toHaveCount(2)
    for (const [index, file] of [secondFile, firstFile].entries()) {
      const row = rows.nth(index)
      await expect(row).toContainText('Volume archive')
      await expect(row).toContainText('Staging')
      await expect(row.getByTestId('transfer-destination')).toHaveText(file)
      await expect(row).toContainText('8.00 MiB')
      await expect(row.getByTestId('transfer-sha256')).toHaveAttribute('title', expected.sha256)
      await expect(row).toContainText('Completed')
      await expect(row.getByRole('cell').nth(6)).toHaveText(/^\d+ s$/)
    }
    return rows
  }

  const rows = await checkPanel()
  // At 1280×800 (the project's viewport), in both themes: nothing cut, nothing scrolls
  // sideways; the whole name is in the title.
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    expect(await transfersOverflow(page, [volume.name])).toEqual([])
  }
  // The volume first, then its node (the sandbox's op 15 names no node, so by its id).
  await expect(rows.nth(0).locator('.transfer-label')).toHaveAttribute(
    'title',
    volumeArchiveLabel(volume),
  )
  // Web mode: no file manager to open, so the path is copied.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await rows
    .nth(0)
    .getByRole('button', { name: `Copy the path of ${volumeArchiveLabel(volume)}` })
    .click()
  await expect(rows.nth(0).getByRole('status')).toHaveText('Path copied')
  const copied = await clipboardText(page)
  expect(copied).toBe(secondFile)
  // The node after the volume, its whole id in the title and copied.
  await expect(rows.nth(0).locator('.transfer-node-name')).toHaveAttribute('title', volume.nodeId)
  await rows
    .nth(0)
    .getByRole('button', { name: `Copy the node id of ${volumeArchiveLabel(volume)}` })
    .click()
  await expect(rows.nth(0).getByRole('status').filter({ hasText: 'Node id copied' })).toBeVisible()
  expect(await clipboardText(page)).toBe(volume.nodeId)
  // The log is in SQLite: the same rows through the bridge.
  const logged = await bridgeCall(page, 'transfers.list', {})
  expect(logged.filter((row) => row.kind === 'volume' && row.state === 'completed')).toHaveLength(2)

  // An earlier run's exports are still listed after a restart.
  await page.goto('about:blank')
  await first.stop()
  const second = await startApp(dataDir)
  await page.goto(second.url)
  await checkPanel()
})

test('a running export shows its throughput: a sparkline, the rates in words, by keyboard', async ({
  page,
  staging: { sandbox },
  downloads: _aFreshFolder,
}) => {
  const volume = (await seededVolumes(sandbox)).find((item) => item.sizeBytes >= 200 * 1024 ** 2)
  if (volume === undefined) throw new Error('the sandbox seeds no volume of at least 200 MiB')
  // A finished export first, so the table holds a row with file buttons beside the running one.
  const small = await seededVolume(sandbox, 'backups-nightly')
  await startExport(page, small)
  await expect(finishedExports(page).getByRole('article').first()).toHaveAttribute(
    'data-state',
    'completed',
  )
  // The sandbox hashes the archive on its first op 15; done here, the export starts at once.
  await announced(sandbox, volume)
  await startExport(page, volume)
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Transfers/ })
    .click()
  const row = page
    .getByRole('table', { name: 'Transfers' })
    .getByRole('row')
    .filter({ hasText: volume.name })
  await expect(row).toContainText('Running')

  // Drawn from several progress events, named with its numbers, the same numbers as text.
  const sparkline = row.getByRole('img', { name: /^Throughput of / })
  await expect(sparkline).toHaveAttribute('data-points', /^([3-9]|\d\d+)$/, { timeout: 60_000 })
  await expect(sparkline.locator('polyline')).toHaveCount(1)
  await expect(sparkline).toHaveAccessibleName(
    new RegExp(
      `^Throughput of ${volumeArchiveLabel(volume)} over the last \\d+ readings: now .+/s, average .+/s, peak .+/s$`,
    ),
  )
  await expect(row.getByTestId('transfer-throughput')).toContainText(/Now .+\/s/)
  await expect(row.getByTestId('transfer-throughput')).toContainText(/Average .+\/s/)
  const box = await sparkline.boundingBox()
  expect(box?.width ?? 0).toBeGreaterThan(50)

  // One Tab stop, just before Cancel.
  const cancel = row.getByRole('button', { name: 'Cancel' })
  await cancel.focus()
  await page.keyboard.press('Shift+Tab')
  await expect(sparkline).toBeFocused()
  expect(await transfersOverflow(page, [volume.name, small.name])).toEqual([])

  await cancel.click()
  await expect(row).toContainText('Cancelled')
  await expect(row.getByRole('img', { name: /^Throughput of / })).toHaveCount(0)
})
