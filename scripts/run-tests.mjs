// `npm test`: every suite a change must pass, in order, then one closing line with the totals:
// vitest (unit, contract and integration tests against real parts), the production build, and the
// Playwright end-to-end suite in Chromium against web mode and the sandbox.
import { requireSupportedNode } from './check-node.mjs'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

// Before anything else: an unsupported Node gets a clear message, not a crash later on.
requireSupportedNode('test')

const resultsDir = join('test-results', 'summary')
mkdirSync(resultsDir, { recursive: true })
const vitestJson = join(resultsDir, 'vitest.json')
const playwrightJson = join(resultsDir, 'playwright.json')

function run(label, command, args, env = {}) {
  console.log(`\n[test] ${label}: ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return result.status === 0
}

function readJson(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null
  } catch {
    return null
  }
}

const bin = (name) => join('node_modules', '.bin', name)
const vitestOk = run('unit and integration', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
])
// The Electron security scan (electronegativity, offline): no unexplained HIGH or MEDIUM finding.
const securityOk = run('security scan', process.execPath, [join('scripts', 'security.mjs')])
const buildOk = run('build', 'npm', ['run', 'build'])
const e2eOk =
  buildOk &&
  run('end to end', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson })

let passed = 0
let failed = 0
let skipped = 0
const vitest = readJson(vitestJson)
if (vitest) {
  passed += vitest.numPassedTests ?? 0
  failed += vitest.numFailedTests ?? 0
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0)
}
const playwright = readJson(playwrightJson)
if (playwright?.stats) {
  passed += playwright.stats.expected ?? 0
  failed += (playwright.stats.unexpected ?? 0) + (playwright.stats.flaky ?? 0)
  skipped += playwright.stats.skipped ?? 0
}
// A suite that crashed before reporting counts as a failure even when no test result says so.
const allOk = vitestOk && securityOk && buildOk && e2eOk
if (!allOk && failed === 0) failed = 1
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(allOk ? 0 : 1)
