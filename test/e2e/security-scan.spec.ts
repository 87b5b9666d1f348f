import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import type { Response } from '@playwright/test'
import {
  launchSecretOf,
  SECRET_STORAGE_KEY,
  WEB_EVENTS_PATH,
} from '../../src/shared/bridge/web-protocol'
import { recordEventFramesScript } from './support/bridge'
import { repoRoot } from './support/child'
import {
  addProfileFromSwitcher,
  connectStagingToSandbox,
  expect,
  profileSwitcher,
  test,
} from './support/fixtures'

/*
 * After a session that touches every screen and an error path: no token (admin, viewer) in
 * anything the renderer can reach (every response it received, every pushed event, the DOM,
 * input values, storage, cookies, the address and history, resource timing entries), nor in any
 * log the run wrote (the app's and the sandbox's output, every file in the data folder, every
 * log file under test-results/).
 * The launch secret is held by the page: in its sessionStorage entry, which the web transport
 * sends as a header, and (the browser's doing) in the navigation timing entry of the address
 * the tab was opened at. Both are readable only by scripts of this origin (port included) and
 * go with the tab, and such a script can call the bridge anyway, so the secret gives it nothing
 * more. What matters is that it is in no cookie (sent to every port of 127.0.0.1), not in the
 * address bar or history (bookmarks, shoulder-surfing), not in localStorage (written to disk,
 * kept past the tab), nowhere else in the page, nor in any response or log. Outside the page,
 * the address the app printed to be opened is the only place it appears.
 */

// Page-side scripts as strings: this file is type-checked for Node (no DOM library).
const RECORD_EVENT_FRAMES = recordEventFramesScript('__frames')
// Without the two places the page holds the launch secret by design (see above): its
// sessionStorage entry, checked apart below, and the navigation timing entry, whose name is the
// address the tab was opened at (only a reload replaces it).
const REACHABLE_STATE = `(async () => JSON.stringify({
  frames: window.__frames ?? [],
  html: document.documentElement.outerHTML,
  inputs: [...document.querySelectorAll('input, textarea')].map((element) => element.value),
  cookie: document.cookie,
  local: { ...localStorage },
  session: Object.fromEntries(
    Object.entries(sessionStorage).filter(([key]) => key !== ${JSON.stringify(SECRET_STORAGE_KEY)}),
  ),
  location: location.href,
  historyLength: history.length,
  resources: performance
    .getEntries()
    .filter((entry) => entry.entryType !== 'navigation')
    .map((entry) => entry.name),
  databases: indexedDB.databases ? (await indexedDB.databases()).map((db) => db.name) : [],
  globals: Object.keys(window).filter((key) => typeof window[key] === 'string').map((key) => window[key]),
}))()`

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name)
      return statSync(full).isDirectory() ? filesUnder(full) : [full]
    })
  } catch {
    return []
  }
}

test('no token and no launch secret in anything the renderer can reach, or in any log', async ({
  page,
  startApp,
  startSandbox,
  dataDir,
}) => {
  const [sandbox, app] = await Promise.all([startSandbox(), startApp()])
  const secret = launchSecretOf(app.url)
  expect(secret.length).toBeGreaterThan(20)
  const forbidden = { admin: sandbox.tokens.admin, viewer: sandbox.tokens.viewer, secret }

  const received: Promise<string>[] = []
  page.on('response', (response: Response) => {
    if (new URL(response.url()).pathname === WEB_EVENTS_PATH) return
    received.push(
      response.text().then(
        (body) => `${response.url()}\n${JSON.stringify(response.headers())}\n${body}`,
        () => response.url(),
      ),
    )
  })

  await page.goto(app.url)
  await page.evaluate(RECORD_EVENT_FRAMES)
  await connectStagingToSandbox(page, sandbox)
  // A second profile with the viewer token, and a refused token: the error path (a 401, the
  // dialog's error banner) must not echo anything either.
  await addProfile('Viewer', sandbox.tokens.viewer)
  await expect(profileSwitcher(page)).toContainText('Viewer')
  await addProfile('Wrong', 'not-the-token-0123456789')
  const dialog = page.getByRole('dialog', { name: 'Add a profile' })
  await expect(dialog.getByRole('alert')).toContainText('UNAUTHORIZED')
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  for (const screen of [/Inference models/, /Activity/, /Sessions/]) {
    await page.getByRole('link', { name: screen }).click()
  }
  await expect(page.getByRole('table', { name: 'Sessions' })).toBeVisible()
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect(page.getByText(/^Updated /)).toBeVisible()

  const state = await page.evaluate<string>(REACHABLE_STATE)
  const responses = await Promise.all(received)
  expect(responses.length).toBeGreaterThan(10)
  const reachable = [state, ...responses]
  for (const [name, value] of Object.entries(forbidden)) {
    for (const text of reachable)
      expect(text.includes(value), `${name} reachable by the page: ${text.slice(0, 160)}`).toBe(
        false,
      )
  }
  // The page holds the secret in its sessionStorage entry, and in no cookie of any kind
  // (HttpOnly ones included, which document.cookie above does not show).
  const stored = await page.evaluate<string | null>(
    `sessionStorage.getItem(${JSON.stringify(SECRET_STORAGE_KEY)})`,
  )
  expect(stored === secret, 'the page holds the launch secret in sessionStorage').toBe(true)
  expect(await page.context().cookies()).toEqual([])

  // Logs: the processes' output, the data folder, and every log file the run has written.
  await app.stop()
  const appLines = app.output().split('\n')
  for (const line of appLines.filter((candidate) => candidate.includes(secret))) {
    expect(line, 'the secret outside the printed address').toMatch(
      /^(Infradesk web mode: |WEB_READY )/,
    )
  }
  const logs: [string, string][] = [
    [
      'app output',
      appLines.filter((line) => !/^(Infradesk web mode: |WEB_READY )/.test(line)).join('\n'),
    ],
    ['sandbox output', sandbox.output().replace(/^SANDBOX_READY .*$/m, '')],
    ...filesUnder(dataDir).map((file): [string, string] => [file, readFileSync(file, 'latin1')]),
    ...filesUnder(path.join(repoRoot, 'test-results'))
      .filter((file) => /\.(log|txt|md)$/.test(file))
      .map((file): [string, string] => [file, readFileSync(file, 'latin1')]),
  ]
  expect(logs.length).toBeGreaterThan(3)
  for (const [where, text] of logs) {
    for (const [name, value] of Object.entries(forbidden)) {
      expect(text.includes(value), `${name} in ${where}`).toBe(false)
    }
  }

  async function addProfile(name: string, token: string) {
    await addProfileFromSwitcher(page, { name, baseUrl: sandbox.url, token })
  }
})
