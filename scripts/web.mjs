// `npm run web -- [--port N] [--sandbox] [--data-dir DIR] [--host 127.0.0.1|localhost]`
// Builds the app when out/ is missing or older than its sources, then runs the web-mode host
// (out/main/web.js, built from src/main/web/main.ts) under this Node, forwarding arguments and
// signals. Needs no Electron binary: electron-vite only reads electron's package.json for its
// version. Running the built file instead of compiling TypeScript at launch is a third of the
// start-up time (bench/startup.ts).
import { requireSupportedNode } from './check-node.mjs'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// Before anything else: an unsupported Node gets a clear message, not a crash later on.
requireSupportedNode('web')

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) =>
  path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name)
const builtIndex = path.join(root, 'out', 'renderer', 'index.html')
const builtHost = path.join(root, 'out', 'main', 'web.js')
// What the build is made of: the renderer, the main-process core, the sandbox, the config.
const sources = [
  'src/renderer',
  'src/shared',
  'src/main',
  'src/sandbox',
  'electron.vite.config.ts',
  'package.json',
].map((entry) => path.join(root, entry))

function newestMtime(entry) {
  if (!existsSync(entry)) return 0
  const info = statSync(entry)
  if (!info.isDirectory()) return info.mtimeMs
  let newest = info.mtimeMs
  for (const child of readdirSync(entry)) {
    newest = Math.max(newest, newestMtime(path.join(entry, child)))
  }
  return newest
}

function buildIsStale() {
  if (!existsSync(builtIndex)) return 'out/renderer is missing'
  if (!existsSync(builtHost)) return 'out/main/web.js is missing'
  const built = Math.min(statSync(builtIndex).mtimeMs, statSync(builtHost).mtimeMs)
  const changed = sources.find((entry) => newestMtime(entry) > built)
  return changed ? `${path.relative(root, changed)} changed since the last build` : null
}

const stale = buildIsStale()
if (stale) {
  console.error(`[web] building the app (${stale}) ...`)
  const build = spawnSync(bin('electron-vite'), ['build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    // The binary is never needed to build, and must never be downloaded for it.
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    shell: process.platform === 'win32',
  })
  if (build.status !== 0) {
    console.error('[web] the build failed; see above')
    process.exit(build.status ?? 1)
  }
}

const child = spawn(process.execPath, [builtHost, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
})
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal))
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
