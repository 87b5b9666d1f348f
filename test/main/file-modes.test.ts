import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CACHE_FILE_NAME, openCache } from '../../src/main/cache'
import { createProfileStore, PROFILES_FILE_NAME } from '../../src/main/profiles'
import { SETTINGS_FILE_NAME } from '../../src/main/settings'
import { saveWindowState, windowStateFile } from '../../src/main/shell/window-state'
import { openTestDesk, type TestDesk, type TestDeskSetup } from '../support/desk'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The data folder is 0700 and every file the app writes in it 0600, SQLite's -wal and -shm
 * included, whatever the umask (these tests run with umask 0, where nothing is taken away from
 * a mode the code leaves to defaults). An existing data folder or file left looser is tightened
 * when the app opens it; a folder of the user's that is not the app's keeps its mode. Real files,
 * real SQLite; POSIX only (Windows has no such modes).
 */

const posixOnly = it.skipIf(process.platform === 'win32')

function modeOf(file: string): number {
  return statSync(file).mode & 0o777
}

function octal(mode: number): string {
  return mode.toString(8)
}

let temp: TempDir
let savedUmask: number
const desks: TestDesk[] = []

/** A desk over `<its temp folder>/<dataFolder>`, after `beforeOpen` laid out what is there. */
async function openDesk(dataFolder: string, beforeOpen?: TestDeskSetup['beforeOpen']) {
  const desk = await openTestDesk('file-modes', {}, { dataFolder, beforeOpen })
  desks.push(desk)
  return desk
}

/** A settings write, so settings.json exists (the open cache already has its -wal and -shm). */
async function writeSomething(desk: TestDesk): Promise<void> {
  await desk.value('settings.update', { defaultMaxRows: 500 })
}

/** The data files the app writes, each expected 0600. */
function dataFiles(dataDir: string): string[] {
  const cache = path.join(dataDir, CACHE_FILE_NAME)
  return [
    cache,
    `${cache}-wal`,
    `${cache}-shm`,
    `${cache}.open`,
    path.join(dataDir, SETTINGS_FILE_NAME),
  ]
}

beforeAll(async () => {
  temp = await makeTempDir('infradesk-file-modes')
  // Nothing masked: what the code does not set explicitly shows as 0666 / 0777.
  savedUmask = process.umask(0)
})

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close()
})

afterAll(async () => {
  process.umask(savedUmask)
  await temp?.remove()
})

describe('file modes of the data folder', () => {
  posixOnly(
    'a new data folder is 0700; the cache, its -wal and -shm and settings are 0600',
    async () => {
      const desk = await openDesk(path.join('fresh', 'Infradesk'))
      const { dataDir } = desk
      await writeSomething(desk)
      expect(octal(modeOf(dataDir))).toBe('700')
      for (const file of dataFiles(dataDir)) {
        expect(octal(modeOf(file)), path.basename(file)).toBe('600')
      }
    },
  )

  posixOnly('an existing data folder and files left looser are tightened when opened', async () => {
    const desk = await openDesk('loose', (dataDir) => {
      mkdirSync(dataDir)
      chmodSync(dataDir, 0o755)
      // What an older version (or a copy by hand) left: an empty cache with readable companions.
      writeFileSync(path.join(dataDir, CACHE_FILE_NAME), '')
      writeFileSync(
        path.join(dataDir, PROFILES_FILE_NAME),
        '{"version":1,"activeId":null,"profiles":[]}\n',
      )
      writeFileSync(path.join(dataDir, SETTINGS_FILE_NAME), '{}\n')
      for (const name of [CACHE_FILE_NAME, PROFILES_FILE_NAME, SETTINGS_FILE_NAME]) {
        chmodSync(path.join(dataDir, name), 0o644)
      }
    })
    const { dataDir } = desk
    const cache = path.join(dataDir, CACHE_FILE_NAME)
    const profiles = path.join(dataDir, PROFILES_FILE_NAME)
    const settings = path.join(dataDir, SETTINGS_FILE_NAME)
    expect(octal(modeOf(dataDir))).toBe('700')
    for (const file of [cache, profiles, settings]) {
      expect(octal(modeOf(file)), path.basename(file)).toBe('600')
    }
    await writeSomething(desk)
    for (const file of dataFiles(dataDir)) {
      expect(octal(modeOf(file)), path.basename(file)).toBe('600')
    }
  })

  posixOnly(
    '-wal and -shm a crashed run left readable are tightened before SQLite reuses them',
    () => {
      const dataDir = path.join(temp.dir, 'companions')
      mkdirSync(dataDir, { mode: 0o700 })
      const file = path.join(dataDir, CACHE_FILE_NAME)
      const first = openCache(file)
      first.cache.close()
      for (const suffix of ['', '-wal', '-shm']) writeFileSync(file + suffix, '', { flag: 'a' })
      for (const suffix of ['', '-wal', '-shm']) chmodSync(file + suffix, 0o644)
      const again = openCache(file)
      try {
        for (const suffix of ['', '-wal', '-shm']) {
          expect(octal(modeOf(file + suffix)), suffix || 'cache.sqlite').toBe('600')
        }
      } finally {
        again.cache.close()
      }
    },
  )

  posixOnly(
    "a folder of the user's that is not the app's keeps its mode; the app's files are 0600",
    async () => {
      const desk = await openDesk('users-folder', (dataDir) => {
        mkdirSync(dataDir)
        chmodSync(dataDir, 0o755)
        writeFileSync(path.join(dataDir, 'notes.txt'), 'mine')
      })
      const { dataDir } = desk
      await writeSomething(desk)
      expect(octal(modeOf(dataDir))).toBe('755')
      for (const file of dataFiles(dataDir)) {
        expect(octal(modeOf(file)), path.basename(file)).toBe('600')
      }
    },
  )

  posixOnly('profiles.json is written 0600', () => {
    const dataDir = path.join(temp.dir, 'profiles-only')
    const store = createProfileStore(path.join(dataDir, PROFILES_FILE_NAME))
    store.add({
      name: 'Staging',
      baseUrl: 'https://api.example.com',
      color: '#2563eb',
      protected: false,
      kind: 'service',
    })
    expect(octal(modeOf(path.join(dataDir, PROFILES_FILE_NAME)))).toBe('600')
    expect(octal(modeOf(dataDir))).toBe('700')
  })

  posixOnly('the window state is written 0600, replacing a looser file', () => {
    const dataDir = path.join(temp.dir, 'window')
    mkdirSync(dataDir, { mode: 0o700 })
    const file = windowStateFile(dataDir)
    writeFileSync(file, '{}')
    chmodSync(file, 0o644)
    saveWindowState(file, { width: 1000, height: 700, maximized: false })
    expect(octal(modeOf(file))).toBe('600')
  })
})
