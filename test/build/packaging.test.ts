import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { APP_ID, DESKTOP_ENTRY, LINUX_EXECUTABLE } from '../../src/main/shell/app-identity'
import { DEEP_LINK_SCHEME } from '../../src/main/shell/deep-link'
import { repoRoot } from '../support/sandbox-process'

/*
 * package.json and electron-builder.yml against what the locked electron-builder does
 * with them (read from node_modules/app-builder-lib, the version `npm run dist` runs). Its own
 * YAML parser reads the config, its own file matcher decides what is packaged and unpacked. What
 * only an installer run on each OS can show is docs/RELEASE.md's checklist.
 */

const requireFromBuilder = createRequire(
  createRequire(import.meta.url).resolve('app-builder-lib/package.json'),
)
const yaml = requireFromBuilder('js-yaml') as { load(text: string): unknown }
const { FileMatcher } = requireFromBuilder('./out/fileMatcher.js') as {
  FileMatcher: new (
    from: string,
    to: string,
    expand: (pattern: string) => string,
    patterns: string[],
  ) => { createFilter(): (file: string, stat: Stats & { moduleFullFilePath?: string }) => boolean }
}
const fpmTarget = requireFromBuilder('./out/targets/FpmTarget.js') as {
  default: { prototype: { getDefaultDepends(target: string): string[] } }
}

interface BuilderConfig {
  appId: string
  files: string[]
  asarUnpack: string[]
  npmRebuild?: boolean
  protocols: Array<{ name: string; schemes: string[] }>
  linux: {
    target: string[]
    executableName?: string
    syncDesktopName?: boolean
    maintainer?: string
    executableArgs?: string[]
  }
  deb?: { depends?: string[] }
  nsis: { include?: string }
  mac: unknown
}

const config = yaml.load(
  readFileSync(path.join(repoRoot, 'electron-builder.yml'), 'utf8'),
) as BuilderConfig
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  homepage?: string
  author?: string | { name?: string; email?: string }
  desktopName?: string
  bin?: Record<string, string>
}
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/

describe('the deb (electron-builder refuses to build it without these)', () => {
  it('has a homepage and an author with an email', () => {
    expect(pkg.homepage).toMatch(/^https:\/\/\S+$/)
    const email =
      typeof pkg.author === 'string' ? /<([^>]+)>/.exec(pkg.author)?.[1] : pkg.author?.email
    expect(email).toMatch(EMAIL)
    // The Debian Maintainer field is "Name <email>" (linux.maintainer wins over author).
    expect(config.linux.maintainer ?? '').toMatch(/^[^<>]+ <[^\s@<>]+@[^\s@<>]+>$/)
  })

  it("keeps electron-builder's dependency list (deb.depends would replace it)", () => {
    expect(config.deb?.depends).toBeUndefined()
    // What that list holds, in the locked version: the libraries Electron needs, xdg-utils for
    // openExternal and the scheme, libnotify for notifications, libsecret for keytar.
    expect(fpmTarget.default.prototype.getDefaultDepends('deb')).toEqual(
      expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libnotify4', 'xdg-utils', 'libsecret-1-0']),
    )
  })

  it('is the main Linux artifact, and nothing turns the sandbox off', () => {
    expect(config.linux.target[0]).toBe('deb')
    const everything = JSON.stringify(config) + JSON.stringify(pkg)
    expect(everything).not.toContain('--no-sandbox')
  })
})

describe("the app's identity", () => {
  it('is the appId main gives Windows as its AppUserModelID', () => {
    expect(config.appId).toBe(APP_ID)
  })

  it('names the desktop entry Electron registers the scheme for after the executable', () => {
    expect(config.linux.executableName).toBe(LINUX_EXECUTABLE)
    expect(pkg.desktopName).toBe(DESKTOP_ENTRY)
    expect(pkg.desktopName).toBe(`${config.linux.executableName}.desktop`)
    // The deb installs /usr/share/applications/<desktopName>, not <executable>.desktop by chance.
    expect(config.linux.syncDesktopName).toBe(true)
    // /usr/bin/<executable> must not shadow the terminal companion's command.
    expect(Object.keys(pkg.bin ?? {})).not.toContain(config.linux.executableName)
  })
})

describe('infradesk:// on every installer', () => {
  it('is declared for the dmg (Info.plist) and the deb (desktop entry MimeType)', () => {
    expect(config.protocols.flatMap((protocol) => protocol.schemes)).toEqual([DEEP_LINK_SCHEME])
  })

  it('is written to the registry by the NSIS installer and removed by its uninstaller', () => {
    expect(config.nsis.include).toBeDefined()
    const script = readFileSync(path.join(repoRoot, config.nsis.include ?? ''), 'utf8')
    const key = `Software\\Classes\\${DEEP_LINK_SCHEME}`
    const install = /!macro customInstall\b([\s\S]*?)!macroend/.exec(script)?.[1] ?? ''
    const uninstall = /!macro customUnInstall\b([\s\S]*?)!macroend/.exec(script)?.[1] ?? ''
    expect(install).toContain(`WriteRegStr SHELL_CONTEXT "${key}" "URL Protocol" ""`)
    expect(install).toContain(`"${key}\\shell\\open\\command" "" '"$appExe" "%1"'`)
    expect(uninstall).toContain(`DeleteRegKey SHELL_CONTEXT "${key}"`)
  })
})

describe('native modules', () => {
  const expand = (pattern: string) =>
    pattern.replaceAll('${platform}', process.platform).replaceAll('${arch}', process.arch)

  /** The files of node_modules/<name> as electron-builder's matcher sees them. */
  function moduleFiles(name: string): Array<{ relative: string; file: string; stat: Stats }> {
    const root = path.join(repoRoot, 'node_modules', name)
    const found: Array<{ relative: string; file: string; stat: Stats }> = []
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder)) {
        const file = path.join(folder, entry)
        const stat = lstatSync(file)
        if (stat.isDirectory()) walk(file)
        else
          found.push({ relative: path.relative(root, file).split(path.sep).join('/'), file, stat })
      }
    }
    walk(root)
    return found
  }

  /** Which files of a module `patterns` let through, matched as electron-builder matches them. */
  function matched(name: string, patterns: string[]): string[] {
    const source = path.join(repoRoot, 'node_modules', name)
    const filter = new FileMatcher(
      source,
      `/app/node_modules/${name}`,
      expand,
      patterns,
    ).createFilter()
    return moduleFiles(name)
      .filter(({ relative, file, stat }) =>
        filter(
          file,
          Object.assign(stat, { moduleFullFilePath: `node_modules/${name}/${relative}` }),
        ),
      )
      .map(({ relative }) => relative)
  }

  /** A module's files go through `**` then every exclusion of `files` (getNodeModuleFileMatcher). */
  const packaged = (name: string) =>
    matched(name, ['**/*', ...config.files.filter((pattern) => pattern.startsWith('!'))])

  it('are not rebuilt: better-sqlite3 and keytar are N-API addons', () => {
    expect(config.npmRebuild).toBe(false)
  })

  it("package better-sqlite3's code and this platform's addon, not SQLite's sources or other platforms'", () => {
    const files = packaged('better-sqlite3')
    expect(files).toContain('lib/index.js')
    expect(files).toContain(`prebuilds/${process.platform}-${process.arch}.node`)
    expect(files.filter((file) => file.startsWith('deps/'))).toEqual([])
    expect(files.filter((file) => file.startsWith('src/'))).toEqual([])
    expect(files.filter((file) => file.startsWith('prebuilds/'))).toEqual([
      `prebuilds/${process.platform}-${process.arch}.node`,
    ])
  })

  it('unpack only the addons themselves from the asar', () => {
    const unpacked = (name: string) =>
      matched(name, config.asarUnpack).filter((file) => packaged(name).includes(file))
    expect(unpacked('better-sqlite3')).toEqual([
      `prebuilds/${process.platform}-${process.arch}.node`,
    ])
    expect(unpacked('keytar')).toEqual(['build/Release/keytar.node'])
  })
})
