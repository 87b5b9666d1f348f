import { randomBytes } from 'node:crypto'
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { LATEST_VERSION, OPEN_MARKER_SUFFIX } from '../../src/main/cache'
import type { Cache, CacheChange, OpenedCache } from '../../src/main/cache'
import { createCertificateCache } from '../../src/main/cache/certificates'
import { MIGRATIONS } from '../../src/main/cache/migrations'
import { createSqlStore } from '../../src/main/cache/sql'
import { useTempCacheFiles } from '../support/temp-cache'

/* The cache against a real SQLite file in a temporary folder. */

const caches = useTempCacheFiles('cache')
const open = caches.open

/** Runs `check` on the cache file as another, read-only connection sees it. */
function readingFile(check: (db: Database.Database) => void): void {
  const db = new Database(caches.file, { readonly: true })
  try {
    check(db)
  } finally {
    db.close()
  }
}

/** SQLite's plan for `sql` reads `index` alone (a covering index: no row lookups). */
function expectCoveringIndex(
  db: Database.Database,
  index: string,
  sql: string,
  ...params: unknown[]
): void {
  const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]
  expect(steps.map((step) => step.detail).join('\n')).toContain(`COVERING INDEX ${index}`)
}

const sessions = [
  { id: 'session-1', authMethod: 'password', isCurrent: true },
  { id: 'session-2', authMethod: 'oidc', isCurrent: false, extra: { nested: [1, 2] } },
]

describe('cached lists', () => {
  it('round-trips a list across a reopen, in order, with its fetch time', () => {
    const { cache, notices } = open()
    expect(notices).toEqual([])
    expect(cache.getList('p1', 'sessions')).toBeNull()
    cache.putList('p1', 'sessions', sessions, 1_700_000_000_000)
    cache.close()

    const { cache: again } = open()
    expect(again.getList('p1', 'sessions')).toEqual({
      items: sessions,
      fetchedAt: 1_700_000_000_000,
    })
    expect(again.getItem('p1', 'sessions', 'session-2')).toEqual(sessions[1])
    expect(again.getItem('p1', 'sessions', 'nope')).toBeUndefined()
  })

  it('replaces the whole list, and keeps an empty list distinct from none', () => {
    const { cache } = open()
    cache.putList('p1', 'certificates', [{ id: 'a' }, { id: 'b' }, { id: 'c' }], 1)
    cache.putList('p1', 'certificates', [{ id: 'c' }], 2)
    expect(cache.getList('p1', 'certificates')).toEqual({ items: [{ id: 'c' }], fetchedAt: 2 })
    cache.putList('p1', 'certificates', [], 3)
    expect(cache.getList('p1', 'certificates')).toEqual({ items: [], fetchedAt: 3 })
  })

  it('never shows one profile the rows of another', () => {
    const { cache } = open()
    cache.putList('alpha', 'sessions', [{ id: 'a-1' }], 10)
    cache.putList('beta', 'sessions', [{ id: 'b-1' }, { id: 'b-2' }], 20)
    cache.putList('beta', 'incidents', [{ id: 'i-1' }], 30)

    expect(cache.getList('alpha', 'sessions')?.items).toEqual([{ id: 'a-1' }])
    expect(cache.getList('alpha', 'incidents')).toBeNull()
    expect(cache.getItem('alpha', 'sessions', 'b-1')).toBeUndefined()

    cache.clearProfile('beta')
    expect(cache.getList('beta', 'sessions')).toBeNull()
    expect(cache.getList('beta', 'incidents')).toBeNull()
    expect(cache.getList('alpha', 'sessions')?.items).toEqual([{ id: 'a-1' }])
  })

  it('refuses an unknown list kind', () => {
    const { cache } = open()
    // @ts-expect-error: the renderer never names kinds, but a bug might
    expect(() => cache.putList('p1', 'secrets', [], 1)).toThrow(/kind/)
  })

  it('uses WAL journaling', () => {
    open()
    readingFile((db) => {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION)
    })
  })
})

describe('SQL history search', () => {
  it('finds statements whatever the case, letters beyond ASCII included', () => {
    const store = createSqlStore(open().cache)
    const statements = [
      "SELECT * FROM Kunden WHERE stadt = 'MÜNCHEN'",
      'select count(*) from ÉVÉNEMENTS',
      'select 1',
    ]
    statements.forEach((sql, index) =>
      store.addHistory({
        profileId: 'p1',
        databaseId: 'db1',
        sql,
        startedAt: 1_000 + index,
        durationMs: 3,
        rowCount: 1,
        command: 'SELECT',
        outcome: 'success',
        errorCode: null,
        errorMessage: null,
      }),
    )
    const found = (search: string) =>
      store.listHistory({ profileId: 'p1', search, limit: 10 }).map((entry) => entry.sql)
    expect(found('münchen')).toEqual([statements[0]])
    expect(found('Événements')).toEqual([statements[1]])
    expect(found('KUNDEN')).toEqual([statements[0]])
    expect(found('  ')).toEqual([...statements].reverse())
    expect(found('%')).toEqual([])
  })
})

describe('migrations', () => {
  /** The cache file as a build of schema `version` left it: its migrations run, none after. */
  function fileAtVersion(version: number): Database.Database {
    const old = new Database(caches.file)
    for (const migration of MIGRATIONS.slice(0, version)) migration(old)
    old.pragma(`user_version = ${version}`)
    return old
  }

  it('brings a version 1 file to the latest version and keeps its rows', () => {
    const old = fileAtVersion(1)
    old
      .prepare('INSERT INTO cached_lists (profile_id, kind, fetched_at) VALUES (?, ?, ?)')
      .run('p1', 'sessions', 42)
    const insertItem = old.prepare(
      'INSERT INTO cached_items (profile_id, kind, position, item_json) VALUES (?, ?, ?, ?)',
    )
    insertItem.run('p1', 'sessions', 0, JSON.stringify({ id: 'old-1', authMethod: 'oidc' }))
    insertItem.run('p1', 'sessions', 1, JSON.stringify({ id: 'old-2', authMethod: 'password' }))
    old
      .prepare(
        `INSERT INTO activity (at, profile_id, profile_name, operation, target_id, outcome)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(5, 'p1', 'Production', 'logout', null, 'success')
    old.close()

    const { cache, notices } = open()
    expect(notices).toEqual([])
    expect(cache.getList('p1', 'sessions')).toEqual({
      items: [
        { id: 'old-1', authMethod: 'oidc' },
        { id: 'old-2', authMethod: 'password' },
      ],
      fetchedAt: 42,
    })
    // Migration 2 filled the new id column from the JSON of version-1 rows.
    expect(cache.getItem('p1', 'sessions', 'old-2')).toEqual({
      id: 'old-2',
      authMethod: 'password',
    })
    expect(cache.listActivity({ limit: 10 })).toMatchObject([
      { profileId: 'p1', profileName: 'Production', operation: 'logout', outcome: 'success' },
    ])
    cache.close()

    readingFile((db) => {
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION)
      const columns = db.prepare('PRAGMA table_info(cached_items)').all() as { name: string }[]
      expect(columns.map((column) => column.name)).toContain('item_id')
    })
  })

  it('brings a version 8 certificate list to version 9, whose folder list reads the index alone', () => {
    const old = fileAtVersion(8)
    const insert = old.prepare(
      `INSERT INTO certificate_rows (profile_id, id, type, status, is_system, folder_id,
         folder_path_json, search_text, row_json) VALUES (?, ?, NULL, NULL, 0, ?, ?, ?, '{}')`,
    )
    insert.run('p1', 'c1', 'f-ops', '["Ops"]', 'a')
    insert.run('p1', 'c2', 'f-ops', '["Ops"]', 'b')
    insert.run('p1', 'c3', 'f-web', '["Ops","Web"]', 'c')
    insert.run('p1', 'c4', null, '[]', 'd')
    old.close()

    const { cache } = open()
    expect(createCertificateCache(cache).folders('p1')).toEqual([
      { id: 'f-ops', path: ['Ops'] },
      { id: 'f-web', path: ['Ops', 'Web'] },
    ])
    cache.close()

    readingFile((db) => {
      expectCoveringIndex(
        db,
        'certificate_rows_by_folder_path',
        `SELECT folder_id, max(folder_path_json) FROM certificate_rows
             WHERE profile_id = ? AND folder_id IS NOT NULL GROUP BY folder_id`,
        'p1',
      )
    })
  })
  it('brings version 14 rows to version 15: each expiry in its indexed column', () => {
    const old = fileAtVersion(14)
    const insert = old.prepare(
      `INSERT INTO certificate_rows (profile_id, id, type, status, is_system, folder_id,
         folder_path_json, search_text, row_json) VALUES (?, ?, NULL, NULL, 0, NULL, '[]', ?, ?)`,
    )
    insert.run('p1', 'c1', 'a', JSON.stringify({ id: 'c1', notAfter: '2027-03-01T00:00:00.000Z' }))
    insert.run('p1', 'c2', 'b', JSON.stringify({ id: 'c2', notAfter: null }))
    insert.run('p2', 'c3', 'c', JSON.stringify({ id: 'c3', notAfter: '2026-12-01T00:00:00.000Z' }))
    insert.run('p2', 'c4', 'd', JSON.stringify({ id: 'c4', notAfter: 1_700_000_000 }))
    old.close()

    open().cache.close()

    readingFile((db) => {
      const rows = db
        .prepare('SELECT profile_id, id, not_after FROM certificate_rows ORDER BY id')
        .all()
      expect(rows).toEqual([
        { profile_id: 'p1', id: 'c1', not_after: '2027-03-01T00:00:00.000Z' },
        { profile_id: 'p1', id: 'c2', not_after: null },
        { profile_id: 'p2', id: 'c3', not_after: '2026-12-01T00:00:00.000Z' },
        { profile_id: 'p2', id: 'c4', not_after: null },
      ])
      expectCoveringIndex(
        db,
        'certificate_rows_by_not_after',
        `SELECT profile_id, id FROM certificate_rows
             WHERE not_after < ? ORDER BY not_after, profile_id, id`,
        '2030-01-01T00:00:00.000Z',
      )
    })
  })

  it('brings version 15 rows to version 16: each name in a column the first screenful reads from its index', () => {
    const old = fileAtVersion(15)
    const insert = old.prepare(
      `INSERT INTO certificate_rows (profile_id, id, type, status, is_system, folder_id,
         folder_path_json, search_text, row_json) VALUES (?, ?, NULL, NULL, ?, NULL, '[]', '', ?)`,
    )
    insert.run('p1', 'c1', 0, JSON.stringify({ id: 'c1', name: 'Zeta' }))
    insert.run('p1', 'c2', 1, JSON.stringify({ id: 'c2', name: 'Älpha 10' }))
    insert.run('p2', 'c3', 0, JSON.stringify({ id: 'c3', name: 42 }))
    insert.run('p2', 'c4', 0, 'not json')
    old.close()

    open().cache.close()

    readingFile((db) => {
      expect(db.prepare('SELECT id, name FROM certificate_rows ORDER BY id').all()).toEqual([
        { id: 'c1', name: 'Zeta' },
        { id: 'c2', name: 'Älpha 10' },
        { id: 'c3', name: null },
        { id: 'c4', name: null },
      ])
      for (const where of ['profile_id = ?', 'profile_id = ? AND is_system = 0']) {
        expectCoveringIndex(
          db,
          'certificate_rows_by_name',
          `SELECT id, name FROM certificate_rows WHERE ${where}`,
          'p1',
        )
      }
    })
  })

  it('brings version 16 rows to version 17: no places kept yet, so the first screenful reads the old way', () => {
    const old = fileAtVersion(16)
    const insert = old.prepare(
      `INSERT INTO certificate_rows (profile_id, id, type, status, is_system, folder_id,
         folder_path_json, search_text, name, row_json) VALUES (?, ?, NULL, NULL, 0, NULL, '[]', ?, ?, ?)`,
    )
    for (const [id, name] of [
      ['c1', 'Zeta'],
      ['c2', 'alpha'],
      ['c3', 'Beta'],
    ] as const) {
      insert.run('p1', id, name.toLowerCase(), name, JSON.stringify({ id, name }))
    }
    old.close()

    const { cache } = open()
    try {
      const certificates = createCertificateCache(cache)
      expect(certificates.rankedIn('p1')).toBeNull()
      const first = certificates.firstRowsJson('p1', {}, { count: 2, locale: 'en' })
      expect(first?.of).toBe(3)
      expect(JSON.parse(first!.rows.toString('utf8'))).toEqual([
        { id: 'c2', name: 'alpha' },
        { id: 'c3', name: 'Beta' },
      ])
    } finally {
      cache.close()
    }
  })
})

describe('recovery from a damaged file', () => {
  function writeRealCache(): void {
    const { cache } = open()
    const many = Array.from({ length: 400 }, (_, i) => ({ id: `item-${i}`, pad: 'x'.repeat(200) }))
    cache.putList('p1', 'certificates', many, 1)
    cache.recordActivity(activity({ at: 1 }))
    cache.close()
  }

  function overwrite(at: number, bytes: Buffer): void {
    const fd = openSync(caches.file, 'r+')
    try {
      writeSync(fd, bytes, 0, bytes.length, at)
    } finally {
      closeSync(fd)
    }
  }

  function expectRecovered(result: OpenedCache): string {
    expect(result.notices).toHaveLength(1)
    const notice = result.notices[0]!
    expect(notice.level).toBe('warning')
    const asideName = readdirSync(caches.dir).find((name) =>
      name.startsWith('cache.sqlite.corrupt-'),
    )
    expect(asideName, readdirSync(caches.dir).join(', ')).toBeDefined()
    expect(notice.message).toContain(asideName!)
    // The new cache works.
    result.cache.putList('p1', 'sessions', [{ id: 's' }], 9)
    expect(result.cache.getList('p1', 'sessions')?.items).toEqual([{ id: 's' }])
    expect(result.cache.getList('p1', 'certificates')).toBeNull()
    return path.join(caches.dir, asideName!)
  }

  it('moves aside a file whose header is overwritten, and rebuilds', () => {
    writeRealCache()
    const original = readFileSync(caches.file)
    overwrite(0, randomBytes(100))
    const asidePath = expectRecovered(open())
    // The damaged bytes are kept, untouched, for whoever wants to look.
    const aside = readFileSync(asidePath)
    expect(aside.length).toBe(original.length)
    expect(aside.subarray(100).equals(original.subarray(100))).toBe(true)
  })

  function damageMiddlePage(): void {
    const pageSize = readFileSync(caches.file).readUInt16BE(16)
    // A page of the list's rows, in the middle of them: the header still says "SQLite format 3"
    // and the schema reads, so only a check of every page finds it. (Picked by SQLite's own
    // page map: a page in the middle of the file may be the schema's, once it spans pages.)
    const db = new Database(caches.file, { readonly: true })
    const rowPages = db
      .prepare<[], { pageno: number }>(
        "SELECT pageno FROM dbstat WHERE name = 'cached_items' AND pagetype = 'leaf' ORDER BY pageno",
      )
      .all()
    db.close()
    expect(rowPages.length).toBeGreaterThan(4)
    const page = rowPages[Math.floor(rowPages.length / 2)]!.pageno
    overwrite((page - 1) * pageSize, randomBytes(pageSize))
  }

  it('after a crash (the open marker left behind), finds a damaged page at open and rebuilds', () => {
    writeRealCache()
    expect(existsSync(caches.file + OPEN_MARKER_SUFFIX)).toBe(false)
    damageMiddlePage()
    // What a session that crashed or was killed leaves beside the file.
    writeFileSync(caches.file + OPEN_MARKER_SUFFIX, '')
    expectRecovered(open())
  })

  it('after a clean close, opens without the check; the check at close finds the damage, and the next open rebuilds', () => {
    writeRealCache()
    damageMiddlePage()
    const first = open()
    expect(first.notices).toEqual([])
    expect(existsSync(caches.file + OPEN_MARKER_SUFFIX)).toBe(true)
    first.cache.close()
    // The failed check keeps the marker: the next open checks, and moves the file aside.
    expect(existsSync(caches.file + OPEN_MARKER_SUFFIX)).toBe(true)
    expectRecovered(open())
  })

  it('clears the open marker at a clean close of a healthy file', () => {
    const { cache } = open()
    expect(existsSync(caches.file + OPEN_MARKER_SUFFIX)).toBe(true)
    cache.putList('p1', 'sessions', sessions, 1)
    cache.close()
    expect(existsSync(caches.file + OPEN_MARKER_SUFFIX)).toBe(false)
  })

  it('moves aside a file of random garbage, and leaves other files alone', () => {
    writeFileSync(caches.file, randomBytes(64 * 1024))
    writeFileSync(path.join(caches.dir, 'profiles.json'), '{"keep":"me"}')
    expectRecovered(open())
    expect(readFileSync(path.join(caches.dir, 'profiles.json'), 'utf8')).toBe('{"keep":"me"}')
    expect(readdirSync(caches.dir).filter((name) => name.includes('corrupt'))).toHaveLength(1)
  })

  it('moves aside a file from a newer schema instead of guessing', () => {
    const newer = new Database(caches.file)
    newer.pragma(`user_version = ${LATEST_VERSION + 1}`)
    newer.close()
    expectRecovered(open())
  })
})

function activity(overrides: Partial<Parameters<Cache['recordActivity']>[0]> = {}) {
  return {
    at: 1_000,
    profileId: 'p1',
    profileName: 'Production',
    operation: 'logout',
    targetId: null,
    outcome: 'success' as const,
    errorCode: null,
    message: null,
    ...overrides,
  }
}

describe('activity log', () => {
  it('returns entries newest first, limited, filtered by profile', () => {
    // Every field set, none left to `activity`'s defaults: the entry read back must carry them all.
    const failedIncident = {
      at: 300,
      profileId: 'p2',
      profileName: 'Staging',
      operation: 'resolveIncident',
      targetId: 'inc-1',
      outcome: 'error' as const,
      errorCode: 'CONFLICT',
      message: 'Resource already exists',
    }
    const { cache } = open()
    const first = cache.recordActivity(activity({ at: 100, targetId: 'a' }))
    expect(first).toMatchObject({ id: expect.any(Number), at: 100, targetId: 'a' })
    cache.recordActivity(activity(failedIncident))
    cache.recordActivity(activity({ at: 200, targetId: 'b' }))
    // Same time: the later insert is newer.
    cache.recordActivity(activity({ at: 200, targetId: 'c' }))

    expect(cache.listActivity({ limit: 10 }).map((entry) => entry.targetId)).toEqual([
      'inc-1',
      'c',
      'b',
      'a',
    ])
    expect(cache.listActivity({ limit: 2 }).map((entry) => entry.targetId)).toEqual(['inc-1', 'c'])
    expect(cache.listActivity({ profileId: 'p1', limit: 10 }).map((e) => e.targetId)).toEqual([
      'c',
      'b',
      'a',
    ])
    expect(cache.listActivity({ profileId: 'p2', limit: 10 })).toEqual([
      { id: expect.any(Number), ...failedIncident },
    ])
    expect(cache.listActivity({ profileId: 'nobody', limit: 10 })).toEqual([])
  })

  it('refuses a malformed entry', () => {
    const { cache } = open()
    expect(() =>
      cache.recordActivity({ ...activity(), outcome: 'maybe' as unknown as 'success' }),
    ).toThrow()
    expect(cache.listActivity({ limit: 10 })).toEqual([])
  })

  it('keeps the activity of a profile whose cached lists are cleared', () => {
    const { cache } = open()
    cache.recordActivity(activity())
    cache.clearProfile('p1')
    expect(cache.listActivity({ profileId: 'p1', limit: 10 })).toHaveLength(1)
  })
})

describe('change events', () => {
  it('reports each write with its name, tables, topics and profile, until unsubscribed', () => {
    const { cache } = open()
    const changes: CacheChange[] = []
    const unsubscribe = cache.onChange((change) => changes.push(change))
    cache.putList('p1', 'sessions', [], 1)
    cache.recordActivity(activity({ profileId: 'p2' }))
    cache.clearProfile('p1')
    unsubscribe()
    cache.putList('p1', 'sessions', [], 2)

    const lists = {
      tables: expect.arrayContaining(['cached_items']),
      topics: expect.arrayContaining(['sessions']),
    }
    expect(changes).toEqual([
      { name: 'putList', ...lists, profileId: 'p1' },
      { name: 'recordActivity', tables: ['activity'], topics: ['activity'], profileId: 'p2' },
      { name: 'clearProfile', ...lists, profileId: 'p1' },
    ])
  })

  it('keeps a write when a listener throws', () => {
    const { cache } = open()
    cache.onChange(() => {
      throw new Error('listener bug')
    })
    cache.putList('p1', 'sessions', [{ id: 'x' }], 1)
    expect(cache.getList('p1', 'sessions')?.items).toEqual([{ id: 'x' }])
  })
})
