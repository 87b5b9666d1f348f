import { z } from 'zod'
import { expect, test } from './support/fixtures'
import { openOps, openScreen, sandboxCall } from './support/ops'

const membersSchema = z.object({
  data: z.array(z.looseObject({ id: z.string(), type: z.string(), nodeId: z.string().optional() })),
})

test('app members: environment id checked as typed, filtered members grouped by kind, Docker ones with their node', async ({
  page,
  staging: started,
}) => {
  const { sandbox, seed } = await openOps(started)
  const staging = seed.appEnvironments.find((environment) => environment.name === 'Staging')
  const app = seed.apps.find(
    (candidate) => staging && candidate.environmentIds.includes(staging.id),
  )
  if (!staging || !app) throw new Error('the seed has no app in staging')

  await openScreen(page, 'App members')
  await page.getByLabel('App ID').fill(app.id)
  const environment = page.getByLabel('Environment ID (optional)')
  await environment.fill('staging')
  await expect(page.getByText('Enter a UUID (8-4-4-4-12 hexadecimal digits)')).toBeVisible()
  await environment.fill(staging.id)
  await page.getByRole('button', { name: 'List members' }).click()

  const members = page.getByRole('region', { name: 'Members' })
  await expect(members.getByRole('status')).toContainText(`in environment ${staging.id}`)

  // The later call: the service's own filtered list, member by member, in the right group.
  const expected = membersSchema.parse(
    (await sandboxCall(sandbox, 'GET', `/api/apps/${app.id}/members?environmentId=${staging.id}`))
      .json,
  ).data
  expect(expected.length).toBeGreaterThan(1)
  await expect(members.getByRole('status')).toContainText(`${expected.length} members`)
  const labels: Record<string, string> = {
    docker: 'Docker containers',
    database: 'Databases',
    proxy_host: 'Proxy hosts',
    static_site: 'Static sites',
  }
  for (const member of expected) {
    const group = members.getByRole('table', { name: labels[member.type] ?? member.type })
    const row = group.getByRole('row').filter({ hasText: member.id })
    await expect(row).toHaveCount(1)
    if (member.type === 'docker') await expect(row).toContainText(member.nodeId ?? '')
  }
  const rows = members.getByRole('table').getByRole('row').filter({ hasNotText: 'Name' })
  await expect(rows).toHaveCount(expected.length)
})
