// `npm test`: every suite a change must pass, in order, then one closing line with the totals:
// vitest (unit, contract and integration tests against real parts), the production build, the
// tests of what the build wrote (test/build: the built main under a stand-in for electron, the
// preload, the packaging config), and the Playwright end-to-end suite in Chromium against web mode
// and the sandbox.
import { requireSupportedNode } from './check-node.mjs'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'

// Before anything else: an unsupported Node gets a clear message, not a crash later on.
requireSupportedNode('test')

const resultsDir = join('test-results', 'summary')
mkdirSync(resultsDir, { recursive: true })
const vitestJson = join(resultsDir, 'vitest.json')
const buildTestsJson = join(resultsDir, 'vitest-build.json')
const BUILD_TESTS = 'test/build'
const playwrightJson = join(resultsDir, 'playwright.json')
// A summary left by an earlier run must not count in this one's totals (a step that never ran).
for (const file of [vitestJson, buildTestsJson, playwrightJson]) rmSync(file, { force: true })

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
  // Read out/, which the build step below writes: they run after it.
  `--exclude=${BUILD_TESTS}/**`,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
])
// The Electron security scan (electronegativity, offline): no unexplained HIGH or MEDIUM finding.
const securityOk = run('security scan', process.execPath, [join('scripts', 'security.mjs')])
const buildOk = run('build', 'npm', ['run', 'build'])
const buildTestsOk =
  buildOk &&
  run('build output and packaging', bin('vitest'), [
    'run',
    BUILD_TESTS,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${buildTestsJson}`,
  ])
const e2eOk =
  buildOk &&
  run('end to end', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson })

let passed = 0
let failed = 0
let skipped = 0
for (const file of [vitestJson, buildTestsJson]) {
  const vitest = readJson(file)
  if (vitest) {
    passed += vitest.numPassedTests ?? 0
    failed += vitest.numFailedTests ?? 0
    skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0)
  }
}
const playwright = readJson(playwrightJson)
if (playwright?.stats) {
  passed += playwright.stats.expected ?? 0
  failed += (playwright.stats.unexpected ?? 0) + (playwright.stats.flaky ?? 0)
  skipped += playwright.stats.skipped ?? 0
}
// A suite that crashed before reporting counts as a failure even when no test result says so.
const allOk = vitestOk && securityOk && buildOk && buildTestsOk && e2eOk
if (!allOk && failed === 0) failed = 1
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(allOk ? 0 : 1)
