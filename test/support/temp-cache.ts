import path from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { openCache, type Cache, type OpenedCache } from '../../src/main/cache'
import { makeTempDir, type TempDir } from './tools'

/*
 * The app's SQLite cache on a real file, in a folder of each test's own: opened as often as a
 * test needs (a reopen is a restart of the app), every connection closed and the folder removed
 * after the test.
 */

export interface TempCacheFiles {
  /** The running test's folder. */
  readonly dir: string
  /** The running test's cache file, `cache.sqlite` in its folder (not made until opened). */
  readonly file: string
  /** Opens `target` (the test's cache file unless told); closed after the test if still open. */
  open(target?: string): OpenedCache
  /** Closes the connection opened last, as the app's quit does before a restart. */
  closeLast(): void
}

/** Registers the calling file's hooks; read the fields inside tests only. */
export function useTempCacheFiles(name: string): TempCacheFiles {
  let temp: TempDir | undefined
  const opened: Cache[] = []
  const running = (): TempDir => {
    if (temp === undefined) throw new Error('a temporary cache is for the inside of a test')
    return temp
  }
  beforeEach(async () => {
    temp = await makeTempDir(`infradesk-${name}`)
  })
  afterEach(async () => {
    for (const cache of opened.splice(0)) cache.close()
    await temp?.remove()
    temp = undefined
  })
  const files: TempCacheFiles = {
    get dir() {
      return running().dir
    },
    get file() {
      return path.join(running().dir, 'cache.sqlite')
    },
    open(target = files.file) {
      const result = openCache(target)
      opened.push(result.cache)
      return result
    },
    closeLast() {
      opened.pop()?.close()
    },
  }
  return files
}
