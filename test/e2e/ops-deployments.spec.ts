import { z } from 'zod'
import { connectViewerToSandbox, expect, test } from './support/fixtures'
import { expectActivityLine, openOps, openScreen, sandboxCall } from './support/ops'
import { sandboxSeed } from './support/seed'

const resolvedSchema = z.object({
  data: z.looseObject({ desiredCommit: z.string(), previousDesiredCommit: z.string().nullable() }),
})

test('resolve a deployment’s branch head: explained, the recorded commit is shown and kept, logged', async ({
  page,
  staging,
}) => {
  const { sandbox, seed } = await openOps(staging)
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
  welcome: { sandbox },
}) => {
  await connectViewerToSandbox(page, sandbox)
  const [deployment] = (await sandboxSeed(sandbox)).deployments
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
