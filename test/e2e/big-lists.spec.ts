import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator, Page } from '@playwright/test'
import { connectFromWelcome, expect, sessionsTable, test } from './support/fixtures'

/*
 * Lists far longer than a screen: the sessions and inference tables show their first
 * rows at once and read the rest from main in windows as they scroll; filtering and sorting
 * happen in main. A local service answers 3,000 sessions and 5,000 models; the bench
 * (bench/lists.ts) runs the same path with 10 MB of each. No timings are asserted here.
 */

const SESSIONS = 3_000
const MODELS = 5_000
const pad = (index: number) => String(index).padStart(5, '0')

function bodies() {
  const now = Date.now()
  const sessions = Array.from({ length: SESSIONS }, (_, index) => ({
    id: `session-${pad(index)}`,
    authMethod: ['oidc', 'password', 'email_otp'][index % 3],
    createdAt: now - index * 60_000,
    // The newest activity is the last session, so sorting moves it to the top.
    lastSeenAt: now - (SESSIONS - index) * 1_000,
    expiresAt: now + 86_400_000,
    ipAddress: `203.0.113.${index % 250}`,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    mfaSatisfiedAt: null,
    isCurrent: index === 0,
  }))
  const models = Array.from({ length: MODELS }, (_, index) => ({
    id: `model-${pad(index)}-${index % 2 === 0 ? 'instruct' : 'base'}`,
    created: 1_700_000_000 + index,
    owned_by: index % 10 === 0 ? 'lab-a' : 'lab-b',
  }))
  return {
    sessions: JSON.stringify(sessions),
    catalog: JSON.stringify({ object: 'list', data: models }),
  }
}

/**
 * Scrolls to the end until `last` shows: rows are measured as they render, so the first jump
 * lands where the estimated heights put the end.
 */
async function toTheEnd(scroller: Locator, last: Locator): Promise<void> {
  await expect(async () => {
    await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight))
    await expect(last).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 20_000 })
}

let service: Server
let serviceUrl: string

test.beforeAll(async () => {
  const { sessions, catalog } = bodies()
  service = createServer((request, response) => {
    request.resume()
    const body =
      request.url === '/auth/me/sessions'
        ? sessions
        : request.url === '/api/inference/catalog'
          ? catalog
          : null
    response.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' })
    response.end(body ?? '{"code":"NOT_FOUND","message":"Not found"}')
  })
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
})

test.afterAll(async () => {
  await new Promise((resolve) => service.close(resolve))
})

/** Starts the app, connects it from the welcome screen to the big service: its sessions show. */
async function connectToBigService(page: Page, startApp: () => Promise<{ url: string }>) {
  const app = await startApp()
  await page.goto(app.url)
  await connectFromWelcome(page, { name: 'Big', baseUrl: serviceUrl, token: 'big-token' })
  const table = sessionsTable(page)
  await expect(table.getByText('session-00000', { exact: true })).toBeVisible()
  return table
}

test('sessions: thousands of rows read in windows as the table scrolls; sorted in main', async ({
  page,
  startApp,
}) => {
  const table = await connectToBigService(page, startApp)
  await expect(table.getByText('This session', { exact: true })).toHaveCount(1)
  // Every row is counted for assistive technology, though few are in the DOM.
  await expect(table).toHaveAttribute('aria-rowcount', String(SESSIONS + 1))
  expect(await table.getByRole('row').count()).toBeLessThan(200)

  // The end of the list: its rows come from main as they scroll into view.
  const scroller = page.locator('.virtual-table-wrap')
  await toTheEnd(scroller, table.getByText(`session-${pad(SESSIONS - 1)}`, { exact: true }))
  await expect(table.getByText('session-00000', { exact: true })).toHaveCount(0)

  // Sorted by last activity, newest first: main orders the list, the table reads it again.
  await scroller.evaluate((element) => element.scrollTo(0, 0))
  const lastSeen = table.getByRole('columnheader', { name: /Last seen/ })
  await lastSeen.getByRole('button').click()
  await expect(lastSeen).toHaveAttribute('aria-sort', 'ascending')
  await lastSeen.getByRole('button').click()
  await expect(lastSeen).toHaveAttribute('aria-sort', 'descending')
  const firstRow = table.getByRole('row').nth(1)
  await expect(firstRow).toContainText(`session-${pad(SESSIONS - 1)}`)
  await page.screenshot({ path: test.info().outputPath('sessions-sorted.png') })
  // A third click: the service's order again.
  await lastSeen.getByRole('button').click()
  await expect(lastSeen).toHaveAttribute('aria-sort', 'none')
  await expect(table.getByRole('row').nth(1)).toContainText('session-00000')

  // A refresh reads the list again and keeps the screen's place.
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect(page.getByText(/^Updated /)).toBeVisible()
  await expect(table.getByText('session-00000', { exact: true })).toBeVisible()
})

test('inference: thousands of models, filtered and sorted in main, read in windows', async ({
  page,
  startApp,
}) => {
  await connectToBigService(page, startApp)
  await page.getByRole('link', { name: /Inference models/ }).click()
  const table = page.getByRole('table', { name: 'Inference models' })
  await expect(page.getByText(`${MODELS.toLocaleString('en-US')} models`)).toBeVisible()
  await expect(table.getByText('model-00000-instruct', { exact: true })).toBeVisible()
  // The columns are every field of the catalog, not only of the rows shown.
  await expect(table.getByRole('columnheader', { name: 'owned_by' })).toBeVisible()

  const scroller = page.locator('.virtual-table-wrap')
  await toTheEnd(scroller, table.getByText(`model-${pad(MODELS - 1)}-base`, { exact: true }))

  // Every word of the filter, any case, matched in main.
  const search = page.getByRole('searchbox', { name: 'Search models by ID' })
  await search.fill('INSTRUCT 0049')
  await expect(page.getByText(`5 of ${MODELS.toLocaleString('en-US')} models match`)).toBeVisible()
  await expect(table.getByText('model-00490-instruct', { exact: true })).toBeVisible()
  await expect(table.getByText('model-00491-base', { exact: true })).toHaveCount(0)
  await search.fill('no-such-model')
  await expect(table.getByText('No model ID contains “no-such-model”.')).toBeVisible()
  await search.fill('instruct')
  await expect(
    page.getByText(
      `${(MODELS / 2).toLocaleString('en-US')} of ${MODELS.toLocaleString('en-US')} models match`,
    ),
  ).toBeVisible()

  // Sorted by id, descending, within the filter.
  const idHeader = table.getByRole('columnheader', { name: /Model ID/ })
  await idHeader.getByRole('button').click()
  await idHeader.getByRole('button').click()
  await expect(idHeader).toHaveAttribute('aria-sort', 'descending')
  await expect(table.getByRole('row').nth(1)).toContainText(`model-${pad(MODELS - 2)}-instruct`)
  await page.screenshot({ path: test.info().outputPath('models-sorted.png') })
})
