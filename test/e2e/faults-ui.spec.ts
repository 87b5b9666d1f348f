import { z } from 'zod'
import { startTsxChild } from './support/child'
import { connectStagingToSandbox, expect, sessionsTable, test } from './support/fixtures'

/*
 * The app in a browser while the service misbehaves (a sandbox started with --faults, faults set
 * per route through /__sandbox/faults): the user sees that a call is waiting and can keep using
 * the app meanwhile; each fault ends in an error that names what happened; the sessions shown
 * (and cached) stay the last good ones.
 */

interface FaultySandbox {
  url: string
  tokens: { admin: string; viewer: string }
  setFault(fault: string): Promise<void>
  clearFaults(): Promise<void>
  stop(): Promise<void>
  output(): string
}

async function startFaultySandbox(): Promise<FaultySandbox> {
  const child = await startTsxChild({
    script: 'src/sandbox/cli.ts',
    args: ['--port', '0', '--faults'],
    readyPrefix: 'SANDBOX_READY',
    readySchema: z.looseObject({
      url: z.url(),
      tokens: z.object({ admin: z.string(), viewer: z.string() }),
    }),
  })
  const url = child.ready.url.replace(/\/+$/, '')
  const headers = { authorization: `Bearer ${child.ready.tokens.admin}` }
  const control = async (method: string, body?: unknown) => {
    const response = await fetch(`${url}/__sandbox/faults`, {
      method,
      headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
      body: body ? JSON.stringify(body) : undefined,
    })
    if (!response.ok)
      throw new Error(`faults ${method}: ${response.status} ${await response.text()}`)
  }
  return {
    url,
    tokens: child.ready.tokens,
    async setFault(fault) {
      await control('DELETE')
      await control('POST', { rules: [{ operation: 'listSessions', fault }] })
    },
    clearFaults: () => control('DELETE'),
    stop: child.stop,
    output: child.output,
  }
}

test('under each fault: a waiting call shows, the app stays usable, errors say what happened, the list stays', async ({
  page,
  startApp,
}) => {
  const sandbox = await startFaultySandbox()
  try {
    const app = await startApp()
    await page.goto(app.url)
    await connectStagingToSandbox(page, sandbox)
    const table = sessionsTable(page)
    const sessionIds = () => table.getByTitle('Session ID').allTextContents()
    const idsBefore = await sessionIds()
    expect(idsBefore.length).toBeGreaterThan(0)
    const refresh = page.getByRole('button', { name: 'Refresh' })

    // A slow service: the wait is visible, and other screens work while it lasts.
    await sandbox.setFault('latency=6000')
    await refresh.click()
    await expect(page.getByText('Refreshing…')).toBeVisible()
    await expect(refresh).toHaveAttribute('aria-busy', 'true')
    await page.getByRole('link', { name: /Activity/ }).click()
    await expect(page.getByRole('table', { name: 'Activity' })).toBeVisible()
    await page.getByRole('link', { name: /Sessions/ }).click()
    await expect(page.getByText(/^Updated /)).toBeVisible({ timeout: 30_000 })
    await expect(refresh).not.toHaveAttribute('aria-busy', 'true')

    const alert = page.getByRole('alert')
    const offline = page.getByRole('status', { name: 'Offline' })
    // Service errors go to the screen's error banner; unreachable ones to the app's offline banner.
    const cases: [fault: string, banner: typeof alert, shown: RegExp][] = [
      ['status=500', alert, /INTERNAL_ERROR — the service failed \(500\)/],
      ['status=503', alert, /answered HTTP 503 \(Service Unavailable/],
      ['malformed-json', alert, /BAD_RESPONSE — the answer did not have the expected shape/],
      ['cut=20', offline, /broke while the answer was arriving/],
    ]
    for (const [fault, banner, shown] of cases) {
      await sandbox.setFault(fault)
      await refresh.click()
      await expect(banner).toContainText(shown, { timeout: 30_000 })
      await expect(page.getByText('Something went wrong inside Infradesk')).toHaveCount(0)
      // The last good rows are still on screen.
      expect(await sessionIds()).toEqual(idsBefore)
    }

    // The service recovers: one refresh and the errors are gone.
    await sandbox.clearFaults()
    await refresh.click()
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 30_000 })
    await expect(page.getByRole('status', { name: 'Offline' })).toHaveCount(0)
    await expect(table.getByText('This session', { exact: true })).toHaveCount(1)
  } finally {
    await sandbox.stop()
  }
})
