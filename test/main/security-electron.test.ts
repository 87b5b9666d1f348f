import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../src/main/web/host'
import { repoRoot } from '../support/sandbox-process'

/*
 * Electron's security checklist, the items that are configuration, checked in the source and the
 * packaging config (the Electron binary cannot run on our machines; docs/SECURITY.md says which
 * test or check proves each item). Behaviour that is plain code (the sender check, the URL
 * checks, the permission policy) is tested as code: bridge.test.ts, shell-policy.test.ts.
 */

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8')
const windowSource = read('src/main/shell/window.ts')
const entrySource = read('src/main/index.ts')
/** Code only: comments (which may name what the code avoids) are left out. */
const withoutComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
const preloadSource = withoutComments(read('src/preload/index.ts'))
const builderConfig = read('electron-builder.yml')
const indexHtml = read('src/renderer/index.html')

/** The object literal passed as webPreferences, as source text. */
const webPreferences = /webPreferences:\s*\{([\s\S]*?)\n\s{4}\}/.exec(windowSource)?.[1] ?? ''

function policyOf(text: string): Map<string, string> {
  return new Map(
    text
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name as string, values.join(' ')]),
  )
}

describe('the BrowserWindow', () => {
  it.each([
    ['contextIsolation', 'true'],
    ['sandbox', 'true'],
    ['nodeIntegration', 'false'],
    ['nodeIntegrationInWorker', 'false'],
    ['webviewTag', 'false'],
    ['webSecurity', 'true'],
    ['allowRunningInsecureContent', 'false'],
    ['disableBlinkFeatures', "'Auxclick'"],
  ])('sets %s: %s', (name, value) => {
    expect(webPreferences).toMatch(new RegExp(`\\n\\s*${name}: ${value},`))
  })

  it('turns on no experimental or extra Blink feature, and no remote content', () => {
    for (const source of [windowSource, entrySource]) {
      expect(source).not.toMatch(/experimentalFeatures:\s*true/)
      expect(source).not.toMatch(/enableBlinkFeatures/)
      expect(source).not.toMatch(/nodeIntegrationInSubFrames:\s*true/)
      expect(source).not.toMatch(/loadURL\((['"`])https?:/)
    }
  })

  it('sandboxes every renderer, denies new windows and webviews, limits navigation', () => {
    expect(entrySource).toContain('app.enableSandbox()')
    expect(entrySource).toContain(
      "contents.on('will-attach-webview', (event) => event.preventDefault())",
    )
    expect(entrySource).toContain("contents.setWindowOpenHandler(() => ({ action: 'deny' }))")
    expect(entrySource).toMatch(/contents\.on\('will-navigate'[\s\S]*?isAppUrl/)
    expect(windowSource).toMatch(/'will-navigate'[\s\S]*?isAppUrl[\s\S]*?preventDefault/)
    expect(windowSource).toMatch(/'will-redirect'[\s\S]*?isAppUrl[\s\S]*?preventDefault/)
    expect(windowSource).toMatch(/setWindowOpenHandler\([\s\S]*?return \{ action: 'deny' \}/)
    expect(windowSource).toContain('lockDownSession(window.webContents.session')
  })
})

describe('the preload', () => {
  it('exposes one object with two functions, and never ipcRenderer itself', () => {
    expect(preloadSource.match(/exposeInMainWorld\(/g)).toHaveLength(1)
    expect(preloadSource).toContain('contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, transport)')
    expect(preloadSource).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/)
    expect(preloadSource).not.toMatch(/process\.env/)
    // Only our two fixed channel names are ever used.
    const channels = [
      ...preloadSource.matchAll(/ipcRenderer\.(?:invoke|on|removeListener)\(([A-Z_]+)/g),
    ]
    expect(new Set(channels.map((match) => match[1]))).toEqual(
      new Set(['IPC_INVOKE_CHANNEL', 'IPC_EVENT_CHANNEL']),
    )
  })
})

describe('the content security policy', () => {
  const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(indexHtml)?.[1] ?? ''
  const production = /const PRODUCTION_CSP = \[([\s\S]*?)\]\.join/.exec(windowSource)?.[1] ?? ''
  const productionPolicy = production
    .split('\n')
    .map((line) => /"(.+)"/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined)
    .join('; ')

  it.each([
    ['index.html (file://, packaged app)', () => meta],
    ['window.ts (response header)', () => productionPolicy],
    ['web mode host', () => CONTENT_SECURITY_POLICY],
  ])('%s: scripts from the app only, no eval, no plugins, no base or form tricks', (_name, get) => {
    const policy = policyOf(get())
    expect(policy.get('default-src')).toBe("'self'")
    const scripts = policy.get('script-src') ?? policy.get('default-src')
    expect(scripts).toBe("'self'")
    expect(policy.get('object-src')).toBe("'none'")
    expect(policy.get('base-uri')).toBe("'none'")
    expect(policy.get('form-action')).toBe("'none'")
    expect(policy.get('connect-src')).toBe("'self'")
  })
})

describe('packaging', () => {
  it.each([
    ['runAsNode', 'false'],
    ['enableNodeOptionsEnvironmentVariable', 'false'],
    ['enableNodeCliInspectArguments', 'false'],
    ['enableEmbeddedAsarIntegrityValidation', 'true'],
    ['onlyLoadAppFromAsar', 'true'],
    ['enableCookieEncryption', 'true'],
  ])('flips the fuse %s to %s', (fuse, value) => {
    expect(builderConfig).toMatch(new RegExp(`\\n  ${fuse}: ${value}\\n`))
  })

  it('builds with a current Electron (a supported major)', () => {
    const pkg = JSON.parse(read('node_modules/electron/package.json')) as { version: string }
    expect(Number(pkg.version.split('.')[0])).toBeGreaterThanOrEqual(43)
  })
})
