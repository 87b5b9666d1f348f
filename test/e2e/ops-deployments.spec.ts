import { z } from 'zod'
import { connectFromWelcome, expect, sessionsTable, test } from './support/fixtures'
import { expectActivityLine, openOps, openScreen, sandboxCall, seedOf } from './support/ops'

const resolvedSchema = z.object({
  data: z.looseObject({ desiredCommit: z.string(), previousDesiredCommit: z.string().nullable() }),
})

test('resolve a deployment’s branch head: explained, the recorded commit is shown and kept, logged', async ({
  page,
  startApp,
  startSandbox,
}) => {
  const { sandbox, seed } = await openOps(page, startApp, startSandbox)
  const [deployment] = seed.deployments
  if (!deployment) throw new Error('the seed has no Git blue/green deployment')

  await openScreen(page, 'Deployments')
  const form = page.getByRole('form', { name: 'Resolve the branch head' })
  await expect(form).toContainText('records that commit as the desired commit')
  await expect(form).toContainText('Nothing is built')
  await page.getByLabel('Node ID').fill(deployment.nodeId)
  await page.getByLabel('Deployment ID').fill(deployment.deploymentId)
  await page.getByRole('button', { name: 'Resolve branch head' }).click()
  const commit = page.getByLabel('Recorded commit')
  await expect(commit).toHaveText(/^[0-9a-f]{40}$/)
  const recorded = (await commit.textContent()) ?? ''

  // The later call: resolving again names the commit the screen showed as the one recorded.
  const again = await sandboxCall(
    sandbox,
    'POST',
    `/api/docker/nodes/${deployment.nodeId}/deployments/${deployment.deploymentId}/source/resolve`,
  )
  expect(resolvedSchema.parse(again.json).data.previousDesiredCommit).toBe(recorded)

  await expectActivityLine(page, {
    operation: 'resolveDeploymentSource',
    target: deployment.deploymentId,
  })
})

test('resolving as a viewer: the 403 names docker:containers:edit', async ({
  page,
  startApp,
  startSandbox,
}) => {
  const sandbox = await startSandbox()
  const app = await startApp()
  await page.goto(app.url)
  await connectFromWelcome(page, {
    name: 'Viewer',
    baseUrl: sandbox.url,
    token: sandbox.tokens.viewer,
  })
  await expect(sessionsTable(page).getByText('This session', { exact: true })).toHaveCount(1)
  const [deployment] = (await seedOf(sandbox)).deployments
  if (!deployment) throw new Error('the seed has no deployment')

  await openScreen(page, 'Deployments')
  await page.getByLabel('Node ID').fill(deployment.nodeId)
  await page.getByLabel('Deployment ID').fill(deployment.deploymentId)
  await page.getByRole('button', { name: 'Resolve branch head' }).click()
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('FORBIDDEN')
  await expect(alert).toContainText('docker:containers:edit')
  await expectActivityLine(page, {
    operation: 'resolveDeploymentSource',
    target: deployment.deploymentId,
    outcome: 'Error',
  })
})
