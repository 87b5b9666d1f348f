#!/usr/bin/env node
// The `infradesk` command (package.json "bin"). It runs the TypeScript of src/cli straight from
// the checkout through tsx's API (tsx is installed by `npm install`; esbuild caches the compiled
// files), so `npx infradesk` works without `npm run build` and can never run a stale build.
import { styleText } from 'node:util'

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`error: infradesk needs Node 22.12 or newer (this is ${process.version})\n`)
  process.exit(1)
}

// Ctrl-C or SIGTERM while tsx loads and compiles the CLI, before a command's runner listens
// (src/cli/interrupt.ts): nothing is open or written yet, so the process ends at once, with the
// runner's line and the shells' code for the signal, not Node's default (killed, nothing said).
// While the runner listens, it sets this handler aside (it finds it by the marker) and puts it
// back when it stops listening: one handler per signal at any time, never two lines.
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 }
const INTERRUPT_AT_START = Symbol.for('infradesk.interruptAtStart')
function interruptedAtStart(signal) {
  process.stderr.write(`${styleText('red', 'error:', { stream: process.stderr })} Interrupted\n`)
  process.exit(SIGNAL_EXIT[signal] ?? 1)
}
interruptedAtStart[INTERRUPT_AT_START] = true
for (const signal of Object.keys(SIGNAL_EXIT)) process.on(signal, interruptedAtStart)

// Imported only now (a static import would load tsx before the handler above listens).
const { tsImport } = await import('tsx/esm/api')
await tsImport('../src/cli/entry.ts', import.meta.url)
