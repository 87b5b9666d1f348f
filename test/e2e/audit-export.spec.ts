import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { invokePath } from '../../src/shared/bridge/web-protocol'
import { expect, test } from './support/fixtures'
import { addActivityLines, addFailedActivityLine } from './support/activity'
import { sha256OfFile, withDownloadsFolder } from './support/volumes'
import { tokenLeaks } from '../support/token-forms'

/*
 * The audit trail through the UI, web mode against the sandbox: the Activity log
 * filtered by outcome and a time range, exported as CSV and NDJSON by main into the downloads
 * folder, each file read back against what the screen shows, its size and SHA-256 against what
 * the screen says, and searched for any form of the token.
 */

/** A local day as a date input holds it (`YYYY-MM-DD`); the app and the test share a zone. */
function localDay(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`
}

test('the activity log is filtered and exported to CSV and NDJSON, with nothing secret', async ({
  page,
  staging: { sandbox },
}) => {
  await withDownloadsFolder(page, async (downloads) => {
    // Two lines of this run: one success, one failure (a job that does not exist).
    const jobId = await addActivityLines(page, sandbox)

    await page.getByRole('link', { name: /Activity/ }).click()
    const table = page.getByRole('table', { name: 'Activity' })
    await expect(table.getByRole('row').filter({ hasText: 'cancelCopyJob' })).toHaveCount(2)

    // Errors only, from today: the failure alone.
    await page.getByLabel('Filter by outcome').selectOption('error')
    const today = new Date()
    await page.getByLabel('From day').fill(localDay(today))
    await expect(table.getByRole('row').filter({ hasText: 'cancelCopyJob' })).toHaveCount(1)

    await page.getByRole('button', { name: 'Export CSV' }).click()
    const exported = page.getByRole('status', { name: 'Exported' })
    await expect(exported).toContainText('Exported 1 line')
    const csvPath = (await exported.locator('code').textContent()) ?? ''
    expect(path.dirname(csvPath)).toBe(downloads.dir)
    const csv = await readFile(csvPath, 'utf8')
    await expect(exported).toContainText(`SHA-256 ${await sha256OfFile(csvPath)}`)
    const lines = csv.split('\r\n')
    expect(lines[0]).toBe(
      'time,profileId,profileName,profileBaseUrl,operation,targetId,targetName,outcome,errorCode,message',
    )
    expect(lines).toHaveLength(3) // header, one line, and the empty text after the last CRLF
    expect(lines[1]).toContain(',Staging,')
    expect(lines[1]).toContain(`,cancelCopyJob,99999999-9999-4999-8999-999999999999,`)
    expect(lines[1]).toContain(',error,NOT_FOUND,')
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,/)

    // Successes of today, as NDJSON: the cancelled job, with the name known for it.
    await page.getByLabel('Filter by outcome').selectOption('success')
    await page.getByRole('button', { name: 'Export NDJSON' }).click()
    await expect(exported.locator('code')).toHaveText(/\.ndjson$/)
    await expect(exported).toContainText('Exported 1 line')
    const ndjsonPath = (await exported.locator('code').textContent()) ?? ''
    expect(ndjsonPath).not.toBe(csvPath)
    const ndjson = await readFile(ndjsonPath, 'utf8')
    const records = ndjson
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records).toEqual([
      expect.objectContaining({
        profileName: 'Staging',
        profileBaseUrl: expect.stringContaining(new URL(sandbox.url).host),
        operation: 'cancelCopyJob',
        targetId: jobId,
        outcome: 'success',
        errorCode: null,
      }),
    ])

    // A reversed range (from today until yesterday): pointed out on both days, never asked
    // for (every activity.list the page sends is recorded), the list read last kept.
    const asked: { from?: number; to?: number }[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(invokePath('activity.list'))) {
        asked.push(request.postDataJSON() as { from?: number; to?: number })
      }
    })
    const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1)
    await page.getByLabel('Until day').fill(localDay(yesterday))
    const problem = page.getByRole('alert').filter({ hasText: 'is after Until' })
    await expect(problem).toHaveText(
      new RegExp(`^From ${localDay(today)} is after Until ${localDay(yesterday)}\\.`),
    )
    for (const day of ['From day', 'Until day']) {
      await expect(page.getByLabel(day)).toHaveAttribute('aria-invalid', 'true')
      await expect(page.getByLabel(day)).toHaveAccessibleDescription(/is after Until/)
    }
    await expect(table.getByRole('row').filter({ hasText: 'cancelCopyJob' })).toHaveCount(1)
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled()
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeDisabled()
    // A new line while reversed (the screen reads again on such a change when it may).
    await page.getByLabel('Filter by outcome').selectOption('error')
    await addFailedActivityLine(page)
    await expect(problem).toBeVisible()

    // A range that ended yesterday: the mark goes, nothing on screen, an export of no line.
    await page.getByLabel('From day').fill('')
    await expect(problem).toHaveCount(0)
    await expect(page.getByLabel('Until day')).not.toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByText('No line of the activity log matches these filters.')).toBeVisible()
    // The read that emptied the list was recorded, and none before it asked for the reversed
    // days (from today's start to yesterday's end: an empty span, from >= to).
    expect(asked.some((body) => body.from === undefined && body.to !== undefined)).toBe(true)
    expect(
      asked.filter(
        (body) => body.from !== undefined && body.to !== undefined && body.from >= body.to,
      ),
    ).toEqual([])
    await page.getByRole('button', { name: 'Export CSV' }).click()
    await expect(exported).toContainText('Exported 0 lines')

    // The secret scan of every file written.
    for (const file of [csvPath, ndjsonPath]) {
      expect(tokenLeaks(await readFile(file, 'utf8'), sandbox.tokens.admin)).toEqual([])
    }
  })
})
