#!/usr/bin/env node
// The `infradesk` command (package.json "bin"). It runs the TypeScript of src/cli straight from
// the checkout through tsx's API (tsx is installed by `npm install`; esbuild caches the compiled
// files), so `npx infradesk` works without `npm run build` and can never run a stale build.
import { tsImport } from 'tsx/esm/api'

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`error: infradesk needs Node 22.12 or newer (this is ${process.version})\n`)
  process.exit(1)
}
await tsImport('../src/cli/entry.ts', import.meta.url)
