import type { Page } from '@playwright/test'
import { bridgeCall } from './bridge'
import { expect } from './fixtures'
import type { ExternalSandbox } from './processes'
import { sandboxSeed } from './seed'

/*
 * Lines of the Activity log made through the app's own bridge: a copy job cancelled (a success
 * whose target has a known name), and one that does not exist (NOT_FOUND, a long id).
 */

/** An id no sandbox seed holds. */
const MISSING_JOB_ID = '99999999-9999-4999-8999-999999999999'

/** A success and a failure in the active profile's Activity log; the cancelled job's id. */
export async function addActivityLines(
  page: Page,
  sandbox: Pick<ExternalSandbox, 'url' | 'tokens'>,
): Promise<string> {
  const seed = await sandboxSeed(sandbox)
  const jobId = seed.copyJobs['running']?.[0] ?? seed.copyJobs['queued']?.[0]
  if (jobId === undefined) throw new Error('the seed has no running or queued copy job')
  const { activeId } = await bridgeCall(page, 'profiles.list')
  await bridgeCall(page, 'service.call', {
    profileId: activeId,
    operation: 'cancelCopyJob',
    params: { id: jobId },
  })
  await addFailedActivityLine(page)
  return jobId
}

/** One failure (NOT_FOUND) in the active profile's Activity log. */
export async function addFailedActivityLine(page: Page): Promise<void> {
  const { activeId } = await bridgeCall(page, 'profiles.list')
  await expect(
    bridgeCall(page, 'service.call', {
      profileId: activeId,
      operation: 'cancelCopyJob',
      params: { id: MISSING_JOB_ID },
    }),
  ).rejects.toThrow(/NOT_FOUND/)
}
