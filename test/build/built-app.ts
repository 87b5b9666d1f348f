import { existsSync } from 'node:fs'
import path from 'node:path'
import { repoRoot } from '../support/sandbox-process'

/*
 * The tests in test/build read what `npm run build` wrote to out/: scripts/run-tests.mjs runs
 * them after the build step (and the main vitest run leaves them out). Run alone, they need a
 * build first; they say so instead of failing on a missing file further down.
 */

export const outDir = path.join(repoRoot, 'out')
export const builtMain = path.join(outDir, 'main', 'index.js')
export const builtPreload = path.join(outDir, 'preload', 'index.cjs')
export const builtRendererHtml = path.join(outDir, 'renderer', 'index.html')

export function requireBuild(): void {
  if (!existsSync(builtMain) || !existsSync(builtPreload) || !existsSync(builtRendererHtml)) {
    throw new Error('out/ has no complete build: run `npm run build` first')
  }
}
