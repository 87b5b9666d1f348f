/*
 * `npm run bench -- sql`: the SQL console's result path, measured end to end and written to
 * bench/results/sql.json. The sandbox runs in its own process (as a service would); web mode
 * runs here with a session-only token; the page is Debian's Chromium through Playwright.
 *
 * The query is 100,000 rows × 20 columns of the sandbox's large PostgreSQL database. Per run:
 * - baseline: the same request made here with plain fetch + JSON.parse;
 * - run → first rows painted, in the page (click on Run to the frame after the first rows);
 * - answer → painted: from the moment main finished reading the service's answer (the
 *   result's receivedAt, epoch ms) to that frame (the page's epoch ms; same machine clock);
 * - reaching the last row: scroll to the end, until its cells are painted;
 * - the renderer's heap for the result (after GC, CDP), against the answer's JSON size.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { chromium, type Page } from '@playwright/test'
import { createDesk } from '../src/main/desk'
import { startWebHost } from '../src/main/web/host'
import { createSqlResults } from '../src/main/workers/sql-worker-client'
import { z } from 'zod'
import { startTsxChild } from '../test/e2e/support/child'
import type { Bench, BenchResult, Figure } from './support'
import { median, round, summarize } from './support'

const RUNS = 5
const ROWS = 100_000

/** 20 columns of every common kind: int8, text, timestamptz, numeric, jsonb, bool, interval. */
const QUERY = `select id, occurred_at, kind, customer_id, amount, payload,
  id * 2 as id2, kind || '-' || customer_id as label, occurred_at + interval '1 day' as next_day,
  amount * 3 as amount3, customer_id % 7 as bucket, (payload->>'seq')::int8 as seq,
  payload->>'ok' as ok_text, id % 2 = 0 as even, md5(id::text) as hash, length(kind) as kind_len,
  round(id / 3.0, 4) as third, upper(kind) as kind_upper, id::text || '@example.com' as email,
  timestamptz '2030-01-01 00:00:00+00' - occurred_at as age
from events order by id`

/*
 * The in-page parts are plain script text: tsx would wrap a function's inner functions in a
 * `__name` helper that does not exist in the page, and the node tsconfig has no DOM types.
 */

/** Resolves once `ready()` holds, watching the DOM; then waits for the frame that shows it. */
const WAIT_THEN_PAINT = `
  const waitFor = (root, ready) => new Promise((resolve) => {
    if (ready()) return resolve()
    const observer = new MutationObserver(() => {
      if (ready()) { observer.disconnect(); resolve() }
    })
    observer.observe(root, { childList: true, subtree: true, characterData: true })
  })
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
`

interface PaintedRun {
  ms: number
  paintedAt: number
  receivedAt: number
  parseMs: number
  rows: string | null
}

/** Clicks Run and waits for a new grid whose first row is painted; ms and the paint's epoch. */
function runAndPaint(page: Page): Promise<PaintedRun> {
  return page.evaluate(`(async () => {
    ${WAIT_THEN_PAINT}
    const grid = () => document.querySelector('[role="grid"][aria-label="Result rows"]')
    const before = grid()
    const run = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Run')
    const start = performance.now()
    run.click()
    await waitFor(document.body, () => {
      const current = grid()
      const cell = current && current.querySelector('[aria-rowindex="2"] [role="gridcell"]')
      return current !== null && current !== before && cell !== null && cell.textContent !== ''
    })
    await painted()
    const end = performance.now()
    const meta = document.querySelector('[data-testid="sql-meta"]')
    return {
      ms: end - start,
      paintedAt: performance.timeOrigin + end,
      receivedAt: Number(meta.getAttribute('data-received-at')),
      parseMs: Number(meta.getAttribute('data-parse-ms')),
      rows: grid().getAttribute('aria-rowcount'),
    }
  })()`)
}

/** Scrolls the grid to its end and waits until the last row's cells are painted. */
function scrollToLast(page: Page, rowIndex: number): Promise<number> {
  return page.evaluate(`(async () => {
    ${WAIT_THEN_PAINT}
    const grid = document.querySelector('[role="grid"][aria-label="Result rows"]')
    const start = performance.now()
    grid.scrollTop = grid.scrollHeight
    await waitFor(grid, () => {
      const cell = grid.querySelector('[aria-rowindex="${rowIndex}"] [role="gridcell"]')
      return cell !== null && cell.textContent !== ''
    })
    await painted()
    return performance.now() - start
  })()`)
}

/**
 * The sandbox in its own process, allowing op 5 100,000 rows (`--wide-sql-limits`): by default
 * it holds to a real deployment's 2,000.
 */
async function startSandbox() {
  const child = await startTsxChild({
    script: 'src/sandbox/cli.ts',
    args: ['--port', '0', '--wide-sql-limits'],
    readyPrefix: 'SANDBOX_READY',
    readySchema: z.looseObject({
      url: z.url(),
      tokens: z.object({ admin: z.string().min(1), viewer: z.string().min(1) }),
    }),
  })
  return { url: child.ready.url.replace(/\/+$/, ''), tokens: child.ready.tokens, stop: child.stop }
}

const COMPARE_ROWS = 100_000
const COMPARE_COLUMNS = 10

/** Op 5's answer for 100,000 rows × 10 columns; `changedEvery`th rows differ in one cell. */
function compareAnswer(changedEvery: number): Buffer {
  const rows: string[] = []
  for (let index = 0; index < COMPARE_ROWS; index += 1) {
    const amount = index % changedEvery === 0 ? `"${index}.5"` : `"${index}.00"`
    rows.push(
      `[${index},"name ${index}",${amount},"2030-01-01T00:00:${String(index % 60).padStart(2, '0')}Z",` +
        `${index % 2 === 0},"k${index % 97}",${index * 3},{"seq":${index}},null,"${'x'.repeat(index % 30)}"]`,
    )
  }
  const fields = Array.from({ length: COMPARE_COLUMNS }, (_, column) => `c${column}`)
  return Buffer.from(
    `{"object":"sql_result","data":{"command":"SELECT","rowCount":${COMPARE_ROWS},"fields":${JSON.stringify(fields)},"rows":[${rows.join(',')}]}}`,
  )
}

/**
 * Pin and compare: two 100,000-row × 10-column results kept in the SQL worker, then
 * compared by key through main's facade (the message, the comparison, its counts back), as the
 * `sql.compare` bridge handler does.
 */
async function compareFigure(): Promise<Figure> {
  const results = createSqlResults()
  try {
    const owner = { tabId: 'bench', databaseId: 'bench' }
    await results.keep('pinned', owner, compareAnswer(Number.POSITIVE_INFINITY), 0)
    await results.keep('rerun', owner, compareAnswer(100), 0)
    const times: number[] = []
    for (let index = 0; index < RUNS + 1; index += 1) {
      const start = performance.now()
      const counts = await results.compare(
        `compare-${index}`,
        { before: 'pinned', after: 'rerun' },
        0,
      )
      const ms = performance.now() - start
      await results.release([`compare-${index}`])
      if (counts.changed !== COMPARE_ROWS / 100 - 1) {
        throw new Error(`the comparison found ${counts.changed} changed rows`)
      }
      // The first is a warm-up (the worker's code paths).
      if (index > 0) times.push(ms)
    }
    return summarize('compare 100k × 10 (ms)', times, { unit: 'ms', target: '<= 1000 ms' })
  } finally {
    await results.close()
  }
}

function loadNote(): string {
  return `load average while measuring: ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' / ')}`
}

async function run(): Promise<BenchResult> {
  // `BENCH_SQL_ONLY=compare`: the comparison alone (no sandbox, no Chromium, no build needed).
  if (process.env.BENCH_SQL_ONLY === 'compare') {
    return { figures: [await compareFigure()], notes: [loadNote()] }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'infradesk-bench-sql-'))
  const sandbox = await startSandbox()
  const desk = await createDesk({
    dataDir,
    mode: 'web',
    openExternal: async () => undefined,
    version: 'bench',
    restoreSandbox: false,
    defaultDownloadsDir: dataDir,
    // No background refresh: a profile never read is read at once when added, which would run
    // beside what this bench measures.
    backgroundRefresh: false,
  })
  const host = await startWebHost({
    desk,
    rendererDir: join(import.meta.dirname, '..', 'out', 'renderer'),
  })
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  })
  try {
    const added = await desk.dispatch('profiles.add', {
      name: 'Bench',
      baseUrl: sandbox.url,
      color: '#2563eb',
      protected: false,
      token: sandbox.tokens.admin,
      sessionOnly: true,
    })
    if (!added.ok) throw new Error(`profiles.add: ${added.error.message}`)
    const seed = (await (
      await fetch(`${sandbox.url}/__sandbox/seed`, {
        headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
      })
    ).json()) as { databases: { postgres: string[] } }
    const databaseId = seed.databases.postgres[0]!

    const baseline = async () => {
      const start = performance.now()
      const response = await fetch(`${sandbox.url}/api/databases/${databaseId}/postgres/query`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sandbox.tokens.admin}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ sql: QUERY, maxRows: ROWS }),
      })
      const text = await response.text()
      const body = JSON.parse(text) as { data: { rows: unknown[] } }
      if (body.data.rows.length !== ROWS) throw new Error('The baseline did not get every row')
      return { ms: performance.now() - start, bytes: Buffer.byteLength(text) }
    }
    // Warm-up: the database's engine starts and loads 100,000 rows on its first statement.
    const first = await baseline()
    console.log(`warm-up request: ${round(first.ms)} ms, ${first.bytes} bytes of JSON`)

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto(host.url)
    await page.getByRole('link', { name: /SQL console/ }).click()
    await page.getByLabel('Database id').fill(databaseId)
    await page.getByLabel('Max rows').fill(String(ROWS))
    const editor = page.getByTestId('sql-editor').locator('.cm-content')
    await editor.click()
    await page.keyboard.insertText(QUERY)
    const cdp = await page.context().newCDPSession(page)
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage')
      return (await cdp.send('Runtime.getHeapUsage')).usedSize
    }

    // The renderer's heap with the console open and no result yet.
    const heapEmpty = await heap()
    // One run in the page to warm the renderer's code paths.
    await runAndPaint(page)

    const baselines: number[] = []
    const runs: number[] = []
    const ratios: number[] = []
    const answerToPaint: number[] = []
    const parse: number[] = []
    const lastRow: number[] = []
    const heapGrowth: number[] = []
    for (let index = 0; index < RUNS; index += 1) {
      const plain = await baseline()
      baselines.push(plain.ms)
      const app = await runAndPaint(page)
      if (app.rows !== String(ROWS + 1)) throw new Error(`The grid shows ${app.rows} rows`)
      runs.push(app.ms)
      ratios.push(app.ms / plain.ms)
      answerToPaint.push(app.paintedAt - app.receivedAt)
      parse.push(app.parseMs)
      lastRow.push(await scrollToLast(page, ROWS + 1))
      heapGrowth.push((await heap()) - heapEmpty)
      console.log(
        `run ${index + 1}: fetch+parse ${round(plain.ms)} ms, run→painted ${round(app.ms)} ms, ` +
          `answer→painted ${round(app.paintedAt - app.receivedAt)} ms (first page read in ${round(app.parseMs)} ms), last row ${round(lastRow[index]!)} ms`,
      )
    }
    const jsonBytes = first.bytes
    const figure = (name: string, values: number[], unit = 'ms', target?: string): Figure =>
      summarize(name, values, { unit, ...(target === undefined ? {} : { target }) })
    const figures: Figure[] = [
      figure('baseline: Node fetch + JSON.parse of the same request', baselines),
      figure('Run → first rows painted', runs),
      figure('overhead: run→painted / fetch+parse', ratios, 'x', '<= 1.2'),
      figure("answer's last byte → first rows painted", answerToPaint, 'ms', '<= 100 ms'),
      // Of answer → painted: main reading the head and first 100 rows (the rest is parsed after
      // the reply has left; sql.result.completed brings the exact counts).
      figure("  of which: main reads the answer's first page", parse),
      figure('scroll to the last row, painted', lastRow),
      figure(
        'renderer heap for the result (after scrolling to its end)',
        heapGrowth.map((bytes) => bytes / 1024 / 1024),
        'MB',
      ),
      await compareFigure(),
    ]
    return {
      figures,
      notes: [
        `${ROWS} rows × 20 columns (events, large sandbox database), maxRows ${ROWS}; the answer is ${round(jsonBytes / 1024 / 1024)} MB of JSON; renderer heap for the result is ${round(median(heapGrowth) / jsonBytes)} × that`,
        loadNote(),
      ],
    }
  } finally {
    await browser.close()
    await host.close()
    await desk.close()
    await sandbox.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export default {
  title:
    "SQL console: 100,000 rows × 20 columns, Run to first paint against Node's fetch + JSON.parse",
  run,
} satisfies Bench
