import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

/*
 * The layer rules of eslint.config.js, pinned: small fixture texts are linted at virtual paths
 * inside the repository (the files need not exist) with the project's own configuration. An
 * import across a layer must be refused by the layer rules themselves (no-restricted-imports,
 * no-restricted-syntax for import()), so a case cannot pass on some unrelated error; an allowed
 * import must draw no layer message and parse cleanly, so a rule that grew too wide fails too.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const LAYER_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax'])

let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT })
})

/** The layer messages for `code` at `file`; throws on a parse error (the case itself is wrong). */
async function layerMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) })
  if (!result) throw new Error(`ESLint returned no result for ${file}`)
  const fatal = result.messages.filter((message) => message.fatal)
  if (fatal.length > 0) throw new Error(`${file}: ${fatal.map((m) => m.message).join('; ')}`)
  return result.messages
    .filter((message) => message.ruleId !== null && LAYER_RULES.has(message.ruleId))
    .map((message) => message.message)
}

describe('layer rules refuse', () => {
  it.each([
    // The renderer runs in the window: main, the sandbox and Node are out of reach.
    ['src/renderer/src/features/sql/x.tsx', "import { createDesk } from '../../../../main/desk'"],
    ['src/renderer/src/app/x.ts', "import { startSandbox } from '../../../sandbox'"],
    ['src/renderer/src/app/x.ts', "import { readFile } from 'node:fs'"],
    ['src/renderer/src/app/x.ts', "import fs from 'fs'"],
    ['src/renderer/src/app/x.ts', "import { readFile } from 'fs/promises'"],
    ['src/renderer/src/app/x.ts', "import { join } from 'path'"],
    ['src/renderer/src/app/x.ts', "import { ipcRenderer } from 'electron'"],
    ['src/renderer/src/app/x.ts', "export const desk = import('../../../main/desk')"],
    ['src/renderer/src/app/x.ts', "export const fs = import('node:fs')"],
    // Shared is pure TypeScript.
    ['src/shared/api/x.ts', "import { readFileSync } from 'node:fs'"],
    ['src/shared/api/x.ts', "import { createHash } from 'crypto'"],
    ['src/shared/api/x.ts', "import { app } from 'electron'"],
    ['src/shared/x.ts', "import { createDesk } from '../main/desk'"],
    ['src/shared/x.ts', "export * from '../main/desk'"],
    ['src/shared/bridge/x.ts', "import type { Bridge } from '../../renderer/src/bridge'"],
    ['src/shared/x.ts', "import { startSandbox } from '../sandbox'"],
    // Main: electron only in the shell, the sandbox only through its entry, never the renderer.
    ['src/main/features/certificates.ts', "import { app } from 'electron'"],
    ['src/main/desk.ts', "import { shell } from 'electron/main'"],
    ['src/main/web/cli.ts', "export const electron = import('electron')"],
    ['src/main/desk.ts', "import { bridge } from '../renderer/src/bridge'"],
    ['src/main/shell/window.ts', "import '../../renderer/src/bridge'"],
    ['src/main/features/sessions.ts', "import { startSandbox } from '../../sandbox'"],
    ['src/main/features/sessions.ts', "import type { SeedIds } from '../../sandbox'"],
    ['src/main/features/sessions.ts', "import { x } from '../../../src/sandbox/state'"],
    ['src/main/web/cli.ts', "export const sandbox = import('../../sandbox')"],
    ['src/main/shell/window.ts', "import { startSandbox } from '../../sandbox'"],
    ['src/main/index.ts', "import { startSandbox } from '../sandbox'"],
    ['src/main/sandbox-process/host.ts', "import { utilityProcess } from 'electron'"],
    ['src/main/features/embedded-sandbox.ts', "import { app } from 'electron'"],
    // The sandbox stands alone; the preload only bridges.
    ['src/sandbox/server.ts', "import { app } from 'electron'"],
    ['src/sandbox/handlers/x.ts', "import { createDesk } from '../../main/desk'"],
    ['src/preload/index.ts', "import { createDesk } from '../main/desk'"],
  ])('%s: %s', async (file, code) => {
    expect(await layerMessages(file, code)).not.toEqual([])
  })
})

describe('layer rules allow', () => {
  it.each([
    ['src/main/index.ts', "import { app } from 'electron'"],
    ['src/main/shell/window.ts', "import { BrowserWindow } from 'electron'"],
    ['src/preload/index.ts', "import { contextBridge } from 'electron'"],
    ['src/main/features/embedded-sandbox.ts', "import type { SeedIds } from '../../sandbox'"],
    ['src/main/sandbox-process/host.ts', "import { startSandbox } from '../../sandbox'"],
    ['src/main/features/certificates.ts', "import { readFile } from 'node:fs/promises'"],
    ['src/main/features/certificates.ts', "import { apiErrorSchema } from '../../shared/api'"],
    // Modules of main whose names look like a layer's, reached without climbing out of main.
    ['src/main/desk.ts', "import { sandboxHandlers } from './features/sandbox'"],
    ['src/main/features/x.ts', "import { portOf } from './sandbox'"],
    ['src/main/features/x.ts', "import { launch } from '../sandbox-process/launch'"],
    ['src/main/features/x.ts', "export const launch = import('../sandbox-process/launch')"],
    ['src/renderer/src/app/x.ts', "import { z } from 'zod'"],
    ['src/renderer/src/app/x.ts', "import { apiErrorSchema } from '../../../shared/api'"],
    ['src/shared/api/x.ts', "import { z } from 'zod'"],
    ['src/shared/api/x.ts', "import type { BridgeTransport } from '../bridge/contract'"],
    ['src/sandbox/server.ts', "import http from 'node:http'"],
    ['src/sandbox/server.ts', "import { apiErrorSchema } from '../shared/api'"],
    // Tests and benches reach every layer.
    ['test/main/x.test.ts', "import { app } from 'electron'"],
    ['test/main/x.test.ts', "import { startSandbox } from '../../src/sandbox'"],
    ['test/renderer/x.test.ts', "import { createDesk } from '../../src/main/desk'"],
  ])('%s: %s', async (file, code) => {
    expect(await layerMessages(file, code)).toEqual([])
  })
})

describe('the exceptions name real files', () => {
  // eslint.config.js lists the files of main that may import src/sandbox or electron; a list
  // that names a moved file would silently stop excepting it, or except a stranger later.
  it.each([
    'src/main/features/embedded-sandbox.ts',
    'src/main/sandbox-process',
    'src/main/index.ts',
    'src/main/shell',
  ])('%s exists', (file) => {
    expect(existsSync(path.join(ROOT, file))).toBe(true)
  })
})
