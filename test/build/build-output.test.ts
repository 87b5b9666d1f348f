import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { BRIDGE_GLOBAL, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../src/shared/bridge'
import { repoRoot } from '../support/sandbox-process'
import { builtMain, builtPreload, outDir, requireBuild } from './built-app'

/*
 * What `npm run build` wrote is what Electron will load. The entry's paths (preload,
 * page, icon) resolve to files that exist; every program the core starts beside itself (worker
 * threads, the sandbox's process) was built; the preload is the CommonJS a sandboxed preload must
 * be, requires nothing but electron, and exposes exactly the bridge.
 */

beforeAll(() => requireBuild())

/** Every `new URL('<relative>', import.meta.url)` of a built file, resolved against it. */
function urlsRelativeToModule(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  return [...source.matchAll(/new URL\(\s*["']([^"']+)["'],\s*import\.meta\.url\s*\)/g)].map(
    (match) => fileURLToPath(new URL(match[1] as string, `file://${file}`)),
  )
}

describe('out/main/index.js', () => {
  it('loads a preload, a page and an icon that exist', () => {
    const targets = urlsRelativeToModule(builtMain)
    expect(targets).toEqual(
      expect.arrayContaining([
        path.join(outDir, 'preload', 'index.cjs'),
        path.join(outDir, 'renderer', 'index.html'),
        path.join(repoRoot, 'resources', 'icon.png'),
      ]),
    )
    for (const target of targets) expect(existsSync(target), target).toBe(true)
  })

  it('has every worker and the sandbox host the core starts, built beside it', () => {
    // The names the core asks for (workers/entry.ts, sandbox-process/launch.ts), from the source.
    const names = new Set(['sandbox-host'])
    for (const file of [
      'workers/sql-worker-client.ts',
      'workers/list-worker-client.ts',
      'transfers/worker-download.ts',
    ]) {
      const source = readFileSync(path.join(repoRoot, 'src', 'main', file), 'utf8')
      for (const match of source.matchAll(
        /(?:createWorkerPort<[^>]*>|workerEntry)\(\s*'([\w-]+)'/g,
      )) {
        names.add(match[1] as string)
      }
    }
    expect([...names].sort()).toEqual([
      'download-worker',
      'list-worker',
      'sandbox-host',
      'sql-worker',
    ])
    for (const name of names) {
      const built = path.join(outDir, 'main', `${name}.js`)
      expect(existsSync(built), built).toBe(true)
      expect(statSync(built).size).toBeGreaterThan(0)
    }
  })
})

describe('out/preload/index.cjs', () => {
  const source = () => readFileSync(builtPreload, 'utf8')

  /** Runs the built preload as Electron runs a sandboxed one, recording what it asks for. */
  function runPreload() {
    const required: string[] = []
    const exposed: Array<{ name: string; value: unknown }> = []
    const invoked: unknown[][] = []
    const listeners = new Map<string, (...args: unknown[]) => void>()
    const electron = {
      contextBridge: {
        exposeInMainWorld: (name: string, value: unknown) => exposed.push({ name, value }),
      },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => {
          invoked.push(args)
          return new TextEncoder().encode('{"ok":true,"value":{"mode":"desktop"}}')
        },
        on: (channel: string, listener: (...args: unknown[]) => void) =>
          listeners.set(channel, listener),
        removeListener: (channel: string) => listeners.delete(channel),
      },
    }
    const module = { exports: {} }
    const require = (name: string) => {
      required.push(name)
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`)
      return electron
    }
    // A syntax error here (an `import` or `export` left in) is what Electron would hit too.
    new Function('require', 'module', 'exports', source())(require, module, module.exports)
    return { required, exposed, invoked, listeners }
  }

  it('is CommonJS and requires only electron', () => {
    expect(source()).not.toMatch(/^\s*(import|export)\s/m)
    expect(new Set(runPreload().required)).toEqual(new Set(['electron']))
  })

  it('exposes the bridge once: invoke and subscribe, nothing else', async () => {
    const { exposed, invoked } = runPreload()
    expect(exposed).toHaveLength(1)
    expect(exposed[0]?.name).toBe(BRIDGE_GLOBAL)
    const bridge = exposed[0]?.value as Record<string, unknown>
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe'])
    const invoke = bridge['invoke'] as (channel: string, input: unknown) => Promise<unknown>
    // Main's answer is JSON bytes; the page gets the text.
    expect(await invoke('app.info', {})).toBe('{"ok":true,"value":{"mode":"desktop"}}')
    expect(invoked).toEqual([[IPC_INVOKE_CHANNEL, 'app.info', {}]])
  })

  it('hands the page each event as the value main sent as JSON, as web mode does', () => {
    const { exposed, listeners } = runPreload()
    const subscribe = (exposed[0]?.value as Record<string, unknown>)['subscribe'] as (
      listener: (name: string, payload: unknown) => void,
    ) => () => void
    const received: Array<[string, unknown]> = []
    const unsubscribe = subscribe((name, payload) => received.push([name, payload]))
    const deliver = listeners.get(IPC_EVENT_CHANNEL)
    expect(deliver).toBeDefined()
    deliver?.({}, 'transfers.progress', '{"id":"t1","bytes":10,"at":"2026-12-01T00:00:00.000Z"}')
    // Not one of ours: no name, or a payload that is not JSON text.
    deliver?.({}, 42, '{}')
    deliver?.({}, 'transfers.progress', '{not json')
    expect(received).toEqual([
      ['transfers.progress', { id: 't1', bytes: 10, at: '2026-12-01T00:00:00.000Z' }],
    ])
    unsubscribe()
    expect(listeners.has(IPC_EVENT_CHANNEL)).toBe(false)
  })
})
