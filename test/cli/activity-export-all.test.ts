import path from 'node:path'
import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { defaultDataDir } from '../../src/main/web/options'
import { jsonOf, useCliHome } from './support'

/*
 * `infradesk activity export` prints the whole log, not the newest page of it: the desk hands
 * out at most 1,000 entries a call, so the CLI reads page after page, and entries that share
 * the millisecond where a page ends are printed once each. The log is written straight into
 * the app's SQLite cache: no run of the app makes thousands of entries quickly.
 */

const home = useCliHome('activity-export-all')

/** The most entries activity.list hands out in one call (its contract's bound). */
const PAGE = 1000
/** More than two pages, and a run of entries in one millisecond across each page's end. */
const COUNT = 2 * PAGE + 500
const START = Date.UTC(2026, 0, 1)
/** Entry i's instant: every seven share one millisecond, so a page ends inside a millisecond. */
const atOf = (index: number) => START + Math.floor(index / 7)

it('prints every entry of a log longer than a page, oldest first, each once', async () => {
  // A first run makes the data folder and its cache (with the activity table).
  expect((await home.cli(['profiles', 'list'])).code).toBe(0)
  const cacheFile = path.join(defaultDataDir('linux', home.env()), 'cache.sqlite')
  const db = new Database(cacheFile)
  try {
    const insert = db.prepare(
      `INSERT INTO activity (at, profile_id, profile_name, operation, outcome, message)
       VALUES (?, 'profile-1', 'Probe', 'listCertificates', 'success', ?)`,
    )
    db.transaction(() => {
      for (let index = 0; index < COUNT; index += 1) insert.run(atOf(index), `entry ${index}`)
    })()
  } finally {
    db.close()
  }

  const run = await home.cli(['activity', 'export', '--json'])
  expect(run.code, run.stderr).toBe(0)
  const entries = jsonOf<Array<{ at: number; message: string }>>(run)
  expect(entries).toHaveLength(COUNT)
  expect(entries.map((entry) => entry.message)).toEqual(
    Array.from({ length: COUNT }, (_, index) => `entry ${index}`),
  )
})
