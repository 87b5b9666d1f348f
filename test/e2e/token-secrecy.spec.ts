import type { Response } from '@playwright/test'
import { WEB_BRIDGE_PREFIX, WEB_EVENTS_PATH } from '../../src/shared/bridge/web-protocol'
import { recordEventFramesScript } from './support/bridge'
import { connectStagingToSandbox, expect, profileSwitcher, test } from './support/fixtures'

/*
 * Scripts run inside the page are given as strings: this file is type-checked for Node (the
 * tsconfig.node program has no DOM library), and these few lines only make sense in the page.
 */
const RECORD_EVENT_FRAMES = recordEventFramesScript('__bridgeFrames')
const RECORDED_FRAMES = 'window.__bridgeFrames ?? []'
const INPUT_VALUES = "[...document.querySelectorAll('input, textarea')].map((e) => e.value)"
const STORAGE = 'JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })'

test('the admin token appears nowhere in the renderer', async ({
  page,
  startApp,
  startSandbox,
}) => {
  const [sandbox, app] = await Promise.all([startSandbox(), startApp()])
  const token = sandbox.tokens.admin

  // Every bridge answer the page receives (the event stream is read separately: it never ends).
  const bodies: Promise<string>[] = []
  page.on('response', (response: Response) => {
    const { pathname } = new URL(response.url())
    if (pathname.startsWith(WEB_BRIDGE_PREFIX) && pathname !== WEB_EVENTS_PATH) {
      bodies.push(response.text().catch((error: unknown) => `<unreadable: ${String(error)}>`))
    }
  })
  await page.goto(app.url)
  // A second subscriber to the event stream records every frame the main process pushes.
  await page.evaluate(RECORD_EVENT_FRAMES)

  await connectStagingToSandbox(page, sandbox)

  // Walk through every screen and dialog that shows profile data.
  await page.getByRole('link', { name: /Inference models/ }).click()
  await expect(page.getByRole('table', { name: 'Inference models' })).toBeVisible()
  await page.getByRole('link', { name: /Activity/ }).click()
  await expect(page.getByRole('table', { name: 'Activity' })).toBeVisible()
  await profileSwitcher(page).click()
  await page.getByRole('menuitem', { name: /^Edit Staging/ }).click()
  await expect(page.getByRole('dialog', { name: 'Edit Staging' })).toBeVisible()
  expect(await page.content()).not.toContain(token)
  await page.keyboard.press('Escape')
  await page.getByRole('link', { name: /Sessions/ }).click()
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect(page.getByText(/^Updated /)).toBeVisible()
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click()
  await expect(profileSwitcher(page)).toContainText('Signed out')

  const html = await page.content()
  expect(html).not.toContain(token)
  const inputValues = await page.evaluate<string[]>(INPUT_VALUES)
  expect(inputValues.join('\n')).not.toContain(token)

  // sessionStorage holds the web-mode launch secret by design (see security-scan.spec.ts); a
  // service token must be in neither storage.
  const storage = await page.evaluate<string>(STORAGE)
  expect(storage).not.toContain(token)

  const answers = await Promise.all(bodies)
  expect(answers.length).toBeGreaterThan(5)
  for (const answer of answers) expect(answer).not.toContain(token)

  const frames = await page.evaluate<string[]>(RECORDED_FRAMES)
  expect(frames.length).toBeGreaterThan(0)
  for (const frame of frames) expect(frame).not.toContain(token)
})
