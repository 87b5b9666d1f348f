import { expect } from './support/fixtures'
import { expectActivityLine, openScreen, test } from './support/ops'
import { firstSeeded, sandboxSeed } from './support/seed'

test('cancel a copy job: UUID checked as typed, confirmed, cancelled on the service, logged', async ({
  page,
  ops: { sandbox, seed },
}) => {
  const jobId = firstSeeded(seed.copyJobs['running'], 'running copy job')

  await openScreen(page, 'Storage jobs')
  const field = page.getByLabel('Copy job ID')
  await field.fill('not-a-uuid')
  await expect(page.getByText('Enter a UUID (8-4-4-4-12 hexadecimal digits)')).toBeVisible()
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await field.fill(jobId)
  await expect(field).not.toHaveAttribute('aria-invalid', 'true')

  await page.getByRole('button', { name: 'Cancel copy job…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Cancel this copy job?' })
  await expect(dialog).toContainText(jobId)
  await dialog.getByRole('button', { name: 'Cancel copy job' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: `Copy job ${jobId} cancelled` }),
  ).toContainText('cancelled')
  await expect(page.getByRole('table', { name: 'Cancelled copy job' })).toContainText('cancelled')

  // The later look: the sandbox lists the job among the cancelled ones now.
  const after = await sandboxSeed(sandbox)
  expect(after.copyJobs['cancelled']).toContain(jobId)
  expect(after.copyJobs['running']).not.toContain(jobId)

  await expectActivityLine(page, { operation: 'cancelCopyJob', target: jobId })
})
