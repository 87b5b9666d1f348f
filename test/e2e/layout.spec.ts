import type { Locator, Page } from '@playwright/test'
import {
  certificateGrid,
  certificateRow,
  openCertificates,
  selectCertificate,
} from './support/certificates'
import { expect, test } from './support/fixtures'
import { openScreen } from './support/screens'
import { addActivityLines } from './support/activity'
import {
  openSqlConsole,
  resultGrid,
  resultMeta,
  sandboxDatabases,
  setEditorText,
} from './support/sql'

/*
 * Layout at the window sizes people use, checked by geometry: the sidebar shows every
 * link at 900 px of height, fields side by side line up whatever hints they carry, the Volume
 * export button starts where its fields do, and at 1280×720 the certificate list shows well
 * over ten rows. At 1280×800 (the default window) and 900×700, Certificates, Overview and
 * Activity never scroll sideways, the certificate list takes the width until a certificate is
 * selected, and its details then show beside the list (wide) or under it (narrow).
 */

const THEMES = ['light', 'dark'] as const

async function box(locator: Locator) {
  const found = await locator.boundingBox()
  if (found === null) throw new Error('not rendered')
  return found
}

/** The two inputs labelled `first` and `second` have the same top, to the pixel. */
async function expectInputsAligned(page: Page, first: string, second: string) {
  const [a, b] = [
    await box(page.getByLabel(first, { exact: true })),
    await box(page.getByLabel(second, { exact: true })),
  ]
  expect(Math.abs(a.y - b.y), `${first} at ${a.y}, ${second} at ${b.y}`).toBeLessThanOrEqual(1)
  expect(Math.abs(a.height - b.height)).toBeLessThanOrEqual(1)
}

test('the sidebar shows every link, Settings last, in a window 900 px high', async ({
  page,
  staging: _staging,
}) => {
  const nav = page.getByRole('navigation', { name: 'Main' })
  // 900 px of page, and the ~800 px a 900 px browser window leaves to the page.
  for (const height of [900, 800]) {
    await page.setViewportSize({ width: 1280, height })
    await expect(nav.getByRole('link', { name: /^Settings/ })).toBeInViewport({ ratio: 1 })
    await expect(page.getByText(/^(Web mode|Desktop) · v/)).toBeInViewport({ ratio: 1 })
    // Every link in view without scrolling the navigation.
    expect(
      await nav.evaluate((element) => element.scrollHeight <= element.clientHeight),
      `at ${height} px`,
    ).toBe(true)
  }
})

test.describe('at 1280×900', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('fields side by side line up, and Export volume starts where its fields do', async ({
    page,
    staging: _staging,
  }) => {
    await openScreen(page, 'proxy-routes')
    await expectInputsAligned(page, 'Proxy host ID', 'Route ID')
    await openScreen(page, 'apps')
    await expectInputsAligned(page, 'App ID', 'Environment ID (optional)')

    await openScreen(page, 'volumes')
    const button = await box(page.getByRole('button', { name: 'Export volume' }))
    const field = await box(page.getByLabel('Node id', { exact: true }))
    expect(
      Math.abs(button.x - field.x),
      `button at ${button.x}, field at ${field.x}`,
    ).toBeLessThanOrEqual(1)
    // One line of text: the note beside it does not stretch it.
    expect(button.height).toBeLessThanOrEqual(40)

    await openCertificates(page)
    await selectCertificate(page, 'www-northwind')
    await page.getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Export “www-northwind”' })
    await dialog.getByRole('radio', { name: /^Java keystore / }).check()
    await expectInputsAligned(page, 'Passphrase', 'Passphrase again')
  })
})

test('the SQL console’s checkboxes sit on the line of the buttons or tabs beside them, and Activity’s export buttons follow its filters with no blank band, at 1280×800 and 1920×1080', async ({
  page,
  staging: _staging,
}) => {
  const middle = (found: { y: number; height: number }) => found.y + found.height / 2
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size)
    await openScreen(page, 'sql')
    const toolbar = page.getByRole('toolbar', { name: 'Statement' })
    // Each checkbox beside the button next to it (the toolbar may wrap to two rows).
    for (const [label, button] of [
      ['Read-only tab', 'Save'],
      ['ANALYZE', 'Explain'],
    ] as const) {
      const checkbox = middle(await box(toolbar.locator('label', { hasText: label })))
      const beside = middle(await box(toolbar.getByRole('button', { name: button, exact: true })))
      expect(
        Math.abs(checkbox - beside),
        `${size.width}: ${label} at ${checkbox}, ${button} at ${beside}`,
      ).toBeLessThanOrEqual(1)
    }
    // The results' checkbox on the line of the tabs' words beside it.
    const historyWords = await page.getByRole('tab', { name: 'History' }).evaluate((tab) => {
      const range = tab.ownerDocument.createRange()
      range.selectNodeContents(tab)
      const words = range.getBoundingClientRect()
      return words.y + words.height / 2
    })
    const carryOn = middle(await box(page.locator('label', { hasText: 'Continue after errors' })))
    expect(
      Math.abs(carryOn - historyWords),
      `${size.width}: Continue after errors at ${carryOn}, History at ${historyWords}`,
    ).toBeLessThanOrEqual(1)

    // The screen's own gap between its parts, and nothing more.
    await openScreen(page, 'activity')
    const filters = await box(page.getByRole('search', { name: 'Filter the activity log' }))
    const exports = await box(page.getByRole('group', { name: 'Export the activity log' }))
    const gap = exports.y - (filters.y + filters.height)
    expect(gap, `${size.width}: filters to export buttons`).toBeLessThanOrEqual(13)
    expect(gap).toBeGreaterThanOrEqual(4)
  }
})

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } })

  test('the certificate list shows well over ten rows', async ({ page, staging: _staging }) => {
    await openCertificates(page)
    const grid = certificateGrid(page)
    await expect(grid.getByRole('row').nth(14)).toBeAttached()
    const body = await box(page.locator('.cert-grid-body'))
    const bottom = Math.min(body.y + body.height, 720)
    let whole = 0
    for (const row of await grid.getByRole('row').all()) {
      const rowBox = await row.boundingBox()
      // Header row excluded: it sits above the scrolling body.
      if (rowBox !== null && rowBox.y >= body.y && rowBox.y + rowBox.height <= bottom + 0.5) {
        whole += 1
      }
    }
    expect(whole).toBeGreaterThanOrEqual(13)
  })
})

/**
 * Nothing from the page down to the screen scrolls sideways: the document, nor the shell's
 * scrolling column, nor the main area (a table that needs more may scroll inside itself).
 */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const scrolling = await page.getByRole('main').evaluate((main) => {
    const found: string[] = []
    const root = main.ownerDocument.scrollingElement
    if (root !== null && root.scrollWidth > root.clientWidth) {
      found.push(`page: ${root.scrollWidth} > ${root.clientWidth}`)
    }
    for (let element: typeof main | null = main; element; element = element.parentElement) {
      if (element.scrollWidth > element.clientWidth) {
        found.push(
          `${element.tagName}.${element.className}: ${element.scrollWidth} > ${element.clientWidth}`,
        )
      }
    }
    return found
  })
  expect(scrolling, `${where} scrolls sideways`).toEqual([])
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size })

    test('Certificates, Overview, Activity and Sessions fit the width in both themes; the certificate list takes it until one is selected', async ({
      page,
      staging: { sandbox },
    }) => {
      test.setTimeout(120_000)
      const wide = size.width >= 1280
      // An Activity line with all its columns filled (a long id, an error code), and one that
      // succeeded with a name known for its target.
      await addActivityLines(page, sandbox)

      await openCertificates(page)
      const list = certificateGrid(page)
      const details = page.getByRole('complementary', { name: 'Certificate details' })
      const screen = page.getByRole('region', { name: 'Certificates', exact: true })
      await expect(list.getByRole('row').nth(10)).toBeAttached()
      await expectNoSidewaysScroll(page, 'Certificates')

      // Nothing selected: no details pane; the list has the width, a hint says what to do.
      await expect(details).toHaveCount(0)
      await expect(page.getByText('Select a certificate to see its details')).toBeVisible()
      const listBox = await box(list)
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme })
        await expectNoSidewaysScroll(page, `Certificates (${theme})`)
        const [themedList, screenBox] = [await box(list), await box(screen)]
        expect(
          themedList.width / screenBox.width,
          `${theme}: list ${themedList.width} of ${screenBox.width} px`,
        ).toBeGreaterThanOrEqual(0.7)
        // Names are never cut needlessly: at 1280 every one fits; wherever one is cut, its
        // tooltip holds all of it.
        const names = await list.locator('.cert-name').evaluateAll((spans) =>
          spans.map((span) => ({
            text: span.textContent ?? '',
            title: span.getAttribute('title'),
            cut: span.scrollWidth > span.clientWidth,
          })),
        )
        expect(names.length).toBeGreaterThan(10)
        for (const name of names) expect(name.title, name.text).toBe(name.text)
        if (wide) {
          expect(
            names.filter((name) => name.cut).map((name) => name.text),
            `${theme}: names cut`,
          ).toEqual([])
        }
      }

      // One selected: its details show, beside the list (wide) or under it (narrow).
      await page.emulateMedia({ colorScheme: 'light' })
      await selectCertificate(page, 'www-northwind')
      await expect(details).toBeVisible()
      await expect(page.getByText('Select a certificate to see its details')).toHaveCount(0)
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme })
        await expect(details.getByRole('heading', { name: 'www-northwind' })).toBeInViewport()
        await expect(certificateRow(page, 'www-northwind')).toBeInViewport()
        const [listAfter, detailsBox] = [await box(list), await box(details)]
        expect(detailsBox.width, `${theme}: details width`).toBeGreaterThanOrEqual(280)
        if (wide) {
          expect(detailsBox.x, `${theme}: details beside the list`).toBeGreaterThanOrEqual(
            listAfter.x + listAfter.width,
          )
          expect(Math.abs(detailsBox.y - listAfter.y)).toBeLessThanOrEqual(1)
        } else {
          expect(detailsBox.y, `${theme}: details under the list`).toBeGreaterThanOrEqual(
            listAfter.y + listAfter.height,
          )
          // Under it, as wide as the list, and the list keeps some rows in view.
          expect(Math.abs(detailsBox.width - listAfter.width)).toBeLessThanOrEqual(1)
          expect(listAfter.height).toBeGreaterThanOrEqual(200)
        }
        expect(detailsBox.y + detailsBox.height).toBeLessThanOrEqual(size.height)
        await expectNoSidewaysScroll(page, `Certificates with details (${theme})`)
      }
      await page.emulateMedia({ colorScheme: 'light' })

      // Escape in the list clears the selection: the list has the width again.
      await certificateRow(page, 'www-northwind').click()
      await page.keyboard.press('Escape')
      await expect(details).toHaveCount(0)
      expect((await box(list)).width).toBeCloseTo(listBox.width, 0)

      // A row further down, chosen in the whole list: it stays in sight, whole, as the details
      // open (under the list, in a narrow window, the list gets shorter).
      await page.getByRole('searchbox', { name: 'Search' }).fill('')
      // The row is followed by its selection, not its place among the rows rendered: the list
      // is virtualised, and as the details open (and the counts line says "1 selected") it
      // scrolls, so the tenth row element may then hold another certificate.
      await list.getByRole('row').nth(10).click()
      const chosen = list.locator('[role=row][aria-selected="true"]')
      await expect(chosen).toHaveCount(1)
      await expect(details).toBeVisible()
      await expect(chosen).toBeInViewport({ ratio: 1 })

      await openScreen(page, 'overview')
      await expect(page.getByRole('table', { name: 'Profiles' }).getByRole('row')).toHaveCount(2)
      const profiles = page.getByRole('table', { name: 'Profiles' })
      await openScreen(page, 'activity')
      const activity = page.getByRole('table', { name: 'Activity' })
      await expect(activity.getByRole('row').filter({ hasText: 'cancelCopyJob' })).toHaveCount(2)
      await openScreen(page, 'sessions')
      const sessions = page.getByRole('table', { name: 'Sessions' })
      await expect(sessions.getByRole('row').nth(1)).toBeVisible()
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme })
        for (const [screenName, table] of [
          ['overview', profiles],
          ['activity', activity],
          // Six columns of dates and ids need more than 900 px: there the table scrolls inside
          // itself; from 1280 px it fits.
          ...(wide ? ([['sessions', sessions]] as const) : []),
        ] as const) {
          await openScreen(page, screenName)
          await expectNoSidewaysScroll(page, `${screenName} (${theme})`)
          // The table fits, its own frame included.
          expect(
            await table.evaluate(
              (element) => element.scrollWidth <= element.parentElement!.clientWidth,
            ),
            `${screenName} (${theme}): the table fits`,
          ).toBe(true)
        }
      }
    })
  })
}

/** A disabled button's flat fill (styles.css --disabled-fill) in each theme. */
const DISABLED_FILL = { light: 'rgb(229, 231, 235)', dark: 'rgb(38, 45, 58)' }

test.describe('at 1280×800, both themes', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('Activity rows stay one id high; SQL results use the room; the SQL toolbar keeps two rows with the Library open', async ({
    page,
    staging: { sandbox },
  }) => {
    test.setTimeout(120_000)
    // A line whose target is a bare id no answer named (a copy job that does not exist).
    await addActivityLines(page, sandbox)
    const missingJob = '99999999-9999-4999-8999-999999999999'
    const { small } = await sandboxDatabases(sandbox)

    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme })

      // Activity: an id is cut with an ellipsis on one line, whole in its tooltip and text.
      await openScreen(page, 'activity')
      const activity = page.getByRole('table', { name: 'Activity' })
      const line = activity.getByRole('row').filter({ hasText: 'NOT_FOUND' })
      await expect(line).toHaveCount(1)
      const target = line.getByTitle(missingJob)
      await expect(target).toHaveText(missingJob)
      const lineHeight = await target.evaluate((element) =>
        Number.parseFloat(
          element.ownerDocument.defaultView?.getComputedStyle(element).lineHeight ?? '',
        ),
      )
      expect((await box(target)).height, `${theme}: the id on one line`).toBeLessThanOrEqual(
        lineHeight + 1,
      )
      for (const row of await activity.getByRole('row').all()) {
        expect((await box(row)).height, `${theme}: an Activity row`).toBeLessThanOrEqual(72)
      }
      // The day filters sit on the row of the other filters.
      const [until, operation] = [
        await box(page.getByLabel('Until day')),
        await box(page.getByLabel('Filter by operation')),
      ]
      expect(Math.abs(until.y - operation.y), `${theme}: filters on one row`).toBeLessThanOrEqual(4)
    }

    // SQL: a long text is not cut while the grid has room beside it.
    await page.emulateMedia({ colorScheme: 'light' })
    await openSqlConsole(page, small)
    const long = 'customer name '.repeat(4).trim()
    await setEditorText(page, `select 1 as id, '${long}' as long_text, 'short' as s`)
    await page.keyboard.press('ControlOrMeta+Enter')
    await expect(resultMeta(page)).toContainText('1 row', { timeout: 60_000 })
    const cell = resultGrid(page).getByRole('gridcell').filter({ hasText: long })
    await expect(cell).toHaveCount(1)
    const toolbar = page.getByRole('toolbar', { name: 'Statement' })
    const run = toolbar.getByRole('button', { name: 'Run', exact: true })
    const rowHeight = (await box(run)).height
    const cancel = toolbar.getByRole('button', { name: 'Cancel' })
    await expect(cancel).toBeDisabled()
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      expect(
        await cell.evaluate((element) => element.scrollWidth <= element.clientWidth),
        `${theme}: the long text whole`,
      ).toBe(true)
      // A disabled button is flat grey, not its variant half transparent (themes.spec too).
      await expect(cancel).toHaveCSS('background-color', DISABLED_FILL[theme])
      await expect(cancel).toHaveCSS('opacity', '1')
    }

    // The Library open: the toolbar wraps to two rows at most, the editor keeps its width.
    const editorWidth = (await box(page.getByTestId('sql-editor'))).width
    await toolbar.getByRole('button', { name: 'Library' }).click()
    await expect(page.getByRole('complementary', { name: 'Saved queries' })).toBeVisible()
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      const rows = new Set<number>()
      for (const control of await toolbar.locator(':scope > *').all()) {
        const found = await control.boundingBox()
        if (found !== null && found.width > 0 && found.height > 0)
          rows.add(Math.round(found.y + found.height / 2))
      }
      // Controls of one row share a middle within a few pixels: count the distinct bands.
      const bands = [...rows]
        .sort((a, b) => a - b)
        .filter((y, i, all) => i === 0 || y - all[i - 1]! > 12)
      expect(bands.length, `${theme}: toolbar rows`).toBeLessThanOrEqual(2)
      expect((await box(toolbar)).height, `${theme}: toolbar height`).toBeLessThanOrEqual(
        rowHeight * 2 + 40,
      )
      expect((await box(page.getByTestId('sql-editor'))).width).toBeGreaterThanOrEqual(
        editorWidth - 1,
      )
    }
  })
})

/**
 * Each line break inside `name`'s text (a known name's text node), as the two characters it
 * falls between ("billing-|primary"), read from where a DOM Range puts each character.
 */
async function lineBreaksIn(name: Locator): Promise<string[]> {
  return name.evaluate((element) => {
    const text = element.firstChild
    if (text === null || text.nodeType !== 3) throw new Error('the name holds no text node')
    const characters = text.textContent ?? ''
    const range = element.ownerDocument.createRange()
    const tops = [...characters].map((_, index) => {
      range.setStart(text, index)
      range.setEnd(text, index + 1)
      return Math.round(range.getClientRects()[0]?.top ?? Number.NaN)
    })
    const breaks: string[] = []
    for (let index = 1; index < characters.length; index += 1) {
      if (tops[index] !== tops[index - 1]) {
        breaks.push(`${characters.slice(0, index)}|${characters.slice(index)}`)
      }
    }
    return breaks
  })
}

test.describe('at 800×700, the narrowest desktop window', () => {
  test.use({ viewport: { width: 800, height: 700 } })

  test('a hyphenated name beside its id breaks at a hyphen or dot, never mid-word', async ({
    page,
    staging: { sandbox },
  }) => {
    // Billing-primary, rotated: the history's mono database column holds "name · id".
    const { large } = await sandboxDatabases(sandbox)
    await openScreen(page, 'databases')
    await page.getByLabel('Database ID').fill(large)
    await page.getByRole('button', { name: 'Rotate certificate…' }).click()
    await page.getByRole('button', { name: 'Rotate certificate', exact: true }).click()
    const name = page
      .getByRole('table', { name: 'Rotations' })
      .locator('.known-name-text', { hasText: 'billing-primary' })
    await expect(name).toHaveCount(1)
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme })
      const breaks = await lineBreaksIn(name)
      // The column is narrower than the name here: it must break somewhere, and only there.
      expect(breaks.length, `${theme}: the name wraps`).toBeGreaterThan(0)
      for (const at of breaks) expect(at, `${theme}: a break`).toMatch(/[-.]\|/)
    }
  })
})
