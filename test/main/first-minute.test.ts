import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../support/sandbox-process'

/*
 * A newcomer's first minute: `npm start`, `npm run web` and `npm test` on an old Node say which
 * Node is needed and how to get it (instead of a segmentation fault while building), and
 * `npm run doctor` names every prerequisite with a fix. The old Node is a real one: Debian's
 * Node 20 at /usr/bin/node (or /usr/local/bin/node) on the machines we test on.
 */

const REQUIRED = /Infradesk needs Node\.js 22\.12\.0 or newer; this is Node v\d+/

function oldNode(): string | null {
  for (const candidate of ['/usr/local/bin/node', '/usr/bin/node']) {
    if (!existsSync(candidate)) continue
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim()
    if (Number(/^v(\d+)/.exec(version)?.[1] ?? 99) < 22) return candidate
  }
  return null
}
const node20 = oldNode()

function runScript(node: string, script: string, args: string[] = []) {
  return spawnSync(node, [path.join(repoRoot, 'scripts', script), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, FORCE_COLOR: '0' },
  })
}

describe('the npm scripts start with the Node check', () => {
  it('start, web and test run the scripts that check Node first', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(pkg.scripts.start).toBe('node scripts/start.mjs')
    expect(pkg.scripts.web).toBe('node scripts/web.mjs')
    expect(pkg.scripts.test).toContain('scripts/run-tests.mjs')
    for (const script of ['start.mjs', 'web.mjs', 'run-tests.mjs']) {
      const text = readFileSync(path.join(repoRoot, 'scripts', script), 'utf8')
      const firstStatement = text.split('\n').find((line) => /^[a-z]/.test(line))
      expect(firstStatement, script).toBe("import { requireSupportedNode } from './check-node.mjs'")
    }
  })

  it("web mode's usage reads as lines, for --help and after an unknown option", () => {
    for (const args of [['--help'], ['--nope']]) {
      const result = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'src/main/web/cli.ts', ...args],
        {
          cwd: repoRoot,
          encoding: 'utf8',
          timeout: 120_000,
          env: { ...process.env, FORCE_COLOR: '0' },
        },
      )
      expect(result.status, args.join(' ')).toBe(2)
      const lines = result.stderr.split('\n')
      expect(lines).toContain('usage: npm run web -- [options]')
      expect(lines.some((line) => line.startsWith('  --sandbox '))).toBe(true)
      expect(result.stderr).not.toContain('\\n')
    }
  })

  it('the current Node passes the check', () => {
    const result = runScript(process.execPath, 'check-node.mjs')
    expect(result.status, result.stderr).toBe(0)
  })
})

describe.skipIf(node20 === null)(`on an old Node (${node20 ?? 'none found'})`, () => {
  it.each(['start.mjs', 'web.mjs', 'run-tests.mjs'])(
    '%s stops at once with the version needed and how to get it',
    (script) => {
      const result = runScript(node20 as string, script)
      expect(result.signal).toBeNull()
      expect(result.status).toBe(1)
      expect(result.stderr).toMatch(REQUIRED)
      expect(result.stderr).toContain('nvm install 24')
      expect(result.stderr).toContain('https://nodejs.org/en/download')
      // Nothing was started or built before the message.
      expect(result.stdout).toBe('')
    },
  )

  it('the doctor runs, and says Node is the problem and how to fix it', () => {
    const result = runScript(node20 as string, 'doctor.mjs')
    expect(result.signal).toBeNull()
    expect(result.status).toBe(1)
    expect(result.stdout).toMatch(/MISSING\s+Node\.js\s+Node v\d+\.\d+\.\d+ is too old/)
    expect(result.stdout).toContain('fix: nvm install 24')
  })
})

describe('npm run doctor', () => {
  it('names each prerequisite with what works, and a fix for whatever does not', () => {
    const result = runScript(process.execPath, 'doctor.mjs')
    const lines = result.stdout.split('\n')
    for (const name of [
      'Node.js',
      'npm dependencies',
      'keychain',
      'Electron',
      'Chromium',
      'openssl',
      'keytool',
    ]) {
      const line = lines.find((candidate) => candidate.slice(9).startsWith(name))
      expect(line, `${name} in:\n${result.stdout}`).toBeDefined()
      const index = lines.indexOf(line as string)
      if (!(line as string).startsWith('ok')) {
        expect(lines[index + 1], `a fix for ${name}`).toMatch(/^\s+fix: \S/)
      }
    }
    // Everything the tests need is on this machine, so the doctor says so.
    expect(result.stdout).toMatch(/ok\s+Node\.js/)
    expect(result.stdout).toMatch(/ok\s+Chromium/)
    expect(result.stdout).toMatch(/ok\s+openssl/)
    expect(result.stdout).toMatch(/ok\s+keytool/)
    expect(result.status, result.stdout).toBe(0)
  })

  it('finds the keychain that works (the test keyring) and says so', () => {
    // This file runs under scripts/with-keyring.mjs: a real Secret Service is on D-Bus.
    const result = runScript(process.execPath, 'doctor.mjs')
    if (process.env.DBUS_SESSION_BUS_ADDRESS) {
      expect(result.stdout).toMatch(/ok\s+keychain\s+OS keychain: stored, read back and deleted/)
    } else {
      expect(result.stdout).toMatch(/limited\s+keychain\s+no D-Bus session/)
    }
  })

  it('without a D-Bus session: says tokens stay for the session only, and how to get one', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' }
    delete env.DBUS_SESSION_BUS_ADDRESS
    const result = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'doctor.mjs')], {
      cwd: repoRoot,
      encoding: 'utf8',
      env,
    })
    expect(result.stdout).toMatch(/limited\s+keychain\s+no D-Bus session/)
    expect(result.stdout).toContain('gnome-keyring-daemon --unlock')
  })
})
