import type { Locator, Page } from '@playwright/test'
import { bridgeCall } from './support/bridge'
import { expect } from './support/fixtures'
import { openScreen, pressAndConfirm, test } from './support/ops'

/*
 * Issue 20, "Names, not UUIDs": what an answer carried is remembered, and shown as "name · id"
 * in suggestions, answer tables, the Activity log and the migration dialog; a pasted console
 * link gives its id; Activity reads in words and filters by profile, operation and outcome.
 */

async function profileId(page: Page): Promise<string> {
  const { activeId } = await bridgeCall(page, 'profiles.list')
  if (activeId === null) throw new Error('no active profile')
  return activeId
}

/** Pastes `text` into the field as a user does: through the clipboard and Ctrl+V. */
async function paste(page: Page, field: Locator, text: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  // A string: the specs are type-checked without the DOM's types.
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`)
  await field.focus()
  await field.press('ControlOrMeta+V')
}

test('a cancelled copy job is named in suggestions, answers and the activity log', async ({
  page,
  ops: { seed },
}) => {
  const [jobId, otherJobId] = [
    ...(seed.copyJobs['running'] ?? []),
    ...(seed.copyJobs['queued'] ?? []),
  ]
  if (!jobId || !otherJobId) throw new Error('the seed has too few running or queued copy jobs')

  await openScreen(page, 'Storage jobs')
  const field = page.getByLabel('Copy job ID')
  // A link of the service's console gives its id.
  await paste(page, field, `https://ims.example.com/storage/copy-jobs/${otherJobId}?tab=progress`)
  await expect(field).toHaveValue(otherJobId)
  await field.fill(jobId)
  await pressAndConfirm(page, 'Cancel copy job…', 'Cancel this copy job?')
  const answer = page.getByRole('table', { name: 'Cancelled copy job' })
  await expect(answer).toContainText('cancelled')

  const [known] = await bridgeCall(page, 'knownObjects.lookup', {
    profileId: await profileId(page),
    ids: [jobId],
  })
  const name = known?.name
  if (!name) throw new Error('the cancelled job was not remembered with a name')

  // The suggestion list names it beside its id (the browser matches what is typed on both).
  await field.fill('')
  await expect(page.locator(`datalist option[value="${jobId}"]`)).toHaveAttribute(
    'label',
    `${name} · ${jobId}`,
  )
  // Issue 40, item 10: its name stands for its id (the only copy job of that name seen), and
  // the field says where ids come from, since the service lists no copy jobs.
  await field.fill(name)
  await expect(page.getByText(`“${name}” is ${jobId}`)).toBeVisible()
  await field.press('Enter')
  await expect(field).toHaveValue(jobId)
  await expect(page.getByText(`Known as “${name}”.`)).toBeVisible()
  await expect(page.getByText('The service cannot list copy jobs')).toBeVisible()

  // Activity: the operation in words, the job's name beside its id.
  await openScreen(page, 'Activity')
  const activity = page.getByRole('table', { name: 'Activity' })
  const line = activity.getByRole('row').filter({ hasText: 'Cancel a storage copy job' })
  await expect(line).toHaveCount(1)
  await expect(line).toContainText(`${name} · ${jobId}`)
  await expect(line).toContainText('cancelCopyJob')

  // Filters: by outcome, by operation, by profile.
  await page.getByLabel('Filter by outcome').selectOption('error')
  await expect(line).toHaveCount(0)
  await page.getByLabel('Filter by outcome').selectOption('success')
  await expect(line).toHaveCount(1)
  await page
    .getByLabel('Filter by operation')
    .selectOption({ label: 'Log out the current browser session' })
  await expect(line).toHaveCount(0)
  await expect(activity).toContainText('No line of the activity log matches these filters.')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await page.getByLabel('Filter by profile').selectOption({ label: 'Staging (current)' })
  await expect(line).toHaveCount(1)
})

test('the migration dialog says what it knows of a migration, or that it knows nothing', async ({
  page,
  ops: { seed },
}) => {
  const [resolvedId, unknownId] = seed.migrations['needs_attention'] ?? []
  if (!resolvedId || !unknownId)
    throw new Error('the seed has too few migrations that need attention')
  const resolved = await bridgeCall(page, 'migrations.resolve', {
    profileId: await profileId(page),
    id: resolvedId,
    authoritativeSide: 'target',
  })

  await openScreen(page, 'Migrations')
  await page.getByRole('button', { name: 'Resolve a migration…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Resolve a migration' })
  const field = dialog.getByLabel('Migration id')

  await field.fill(unknownId)
  const note = dialog.getByRole('note', { name: 'What Infradesk knows' })
  await expect(note).toContainText('Infradesk knows nothing of this migration yet')

  // Pasted as a console link; known from the answer that resolved it.
  await paste(page, field, `https://ims.example.com/#/docker/migrations/${resolvedId}`)
  await expect(field).toHaveValue(resolvedId)
  const known = dialog.getByRole('table', { name: 'Known migration' })
  await expect(known).toContainText(resolved.status)
  await expect(known).toContainText(`${resolved.resourceType} ${resolved.resourceName}`)
  await expect(known).toContainText(resolved.sourceNodeId)
  const targetSlug = resolved.targetNodeSlug
  await expect(known).toContainText(
    targetSlug === null ? resolved.targetNodeId : `${targetSlug} · ${resolved.targetNodeId}`,
  )
})
