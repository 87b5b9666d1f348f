import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { z } from 'zod'
import { startSandbox } from './src/sandbox'
import { startTsxChild } from './test/e2e/support/child'
const N = Number(process.env.N ?? 0)
const dataDir = mkdtempSync(join(tmpdir(), 'exp-start-'))
const sandbox = await startSandbox({ port: 0, certificateCount: N })
const web = () => startTsxChild({ script: 'src/main/web/cli.ts', args: ['--port', '0', '--data-dir', dataDir], readyPrefix: 'WEB_READY', readySchema: z.looseObject({ url: z.url() }) })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
let app = await web()
const p0 = await browser.newPage()
await p0.goto(app.ready.url)
await p0.evaluate(async ([baseUrl, token]) => { const r = await fetch('/__bridge/invoke/profiles.add', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'S', baseUrl, color: '#2563eb', protected: false, token }) }); const j = await r.json(); const id = j.value.id; await fetch('/__bridge/invoke/certificates.refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ profileId: id, filter: { showSystem: true } }) }) }, [sandbox.url, sandbox.tokens.admin])
await p0.close(); await app.stop()
for (let run = 0; run < 3; run++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.addInitScript(() => {
    const w = globalThis as any
    w.__marks = {}
    new MutationObserver(() => { if (!w.__marks.row && document.querySelector('[role=grid][aria-label=Certificates] [role=row][aria-rowindex="2"]')) { w.__marks.row = performance.now(); requestAnimationFrame(() => requestAnimationFrame(() => { w.__marks.painted = performance.now() })) } }).observe(document, { subtree: true, childList: true })
  })
  const t0 = performance.now()
  app = await web()
  const t1 = performance.now()
  await page.goto(`${app.ready.url}#/certificates`)
  await page.waitForFunction(() => (globalThis as any).__marks.painted, null, { timeout: 60000 })
  const info = await page.evaluate(() => ({ marks: (globalThis as any).__marks, nav: performance.getEntriesByType('navigation')[0] as any, res: performance.getEntriesByType('resource').map((e: any) => [e.name.replace(location.origin, '').slice(0, 60), Math.round(e.startTime), Math.round(e.responseEnd), e.transferSize]) }))
  console.log(`run ${run}: process ready ${Math.round(t1 - t0)} ms; DCL ${Math.round(info.nav.domContentLoadedEventEnd)} load ${Math.round(info.nav.loadEventEnd)} row ${Math.round(info.marks.row)} painted ${Math.round(info.marks.painted)}`)
  if (run === 2) for (const r of info.res) console.log('   ', r.join('  '))
  await context.close(); await app.stop()
}
await browser.close(); await sandbox.close()
