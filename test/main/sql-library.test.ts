import { mkdir, mkdtemp, readFile, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QueryFile, QueryFolder } from '../../src/shared/bridge/channels/sql-library'
import { createDispatcher, type BridgeHandlers } from '../../src/main/bridge/dispatcher'
import { createEventHub } from '../../src/main/bridge/events'
import type { DeskContext } from '../../src/main/features/context'
import { settingsHandlers } from '../../src/main/features/settings'
import { sqlLibraryHandlers } from '../../src/main/features/sql-library'
import { createSettingsStore, defaultSettings } from '../../src/main/settings'

/*
 * The saved-query library through the bridge's dispatcher (its input schemas included),
 * against real folders and a real settings file: the default `<data folder>/queries`, then
 * another folder named by the setting. Files written from outside (as a `git pull` would) are
 * listed and announced without a restart.
 */

let temp: string
let library: string
let outside: string
const events: { event: string; payload: unknown }[] = []
const cleanups: (() => void | Promise<void>)[] = []
let dispatch: (
  channel: string,
  input: unknown,
) => Promise<{ ok: boolean; value?: unknown; error?: unknown }>

/** What the tests call: the value of a call that must succeed, the error of one that must fail. */
const harness = {
  events,
  async value<T = unknown>(channel: string, input: unknown = {}): Promise<T> {
    const result = await dispatch(channel, input)
    if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
    return result.value as T
  },
  async failure(channel: string, input: unknown = {}): Promise<{ code: string; message: string }> {
    const result = await dispatch(channel, input)
    if (result.ok) throw new Error(`${channel} succeeded: ${JSON.stringify(result.value)}`)
    return result.error as { code: string; message: string }
  },
}

const HEADER = [
  '-- title: Orders of a customer',
  '-- description: Open orders since a date.',
  '-- param :customer uuid',
  '-- param :ids integer list',
].join('\n')

function pathsOf(folder: QueryFolder): string[] {
  return folder.children.flatMap((child) =>
    child.kind === 'file' ? [child.path] : [`${child.path}/`, ...pathsOf(child)],
  )
}

async function listed(): Promise<string[]> {
  const { root } = await harness.value<{ root: QueryFolder }>('sqlLibrary.list')
  return pathsOf(root)
}

function changeEvents(): number {
  return harness.events.filter((entry) => entry.event === 'sqlLibrary.changed').length
}

beforeAll(async () => {
  temp = await mkdtemp(path.join(tmpdir(), 'infradesk-sql-library-'))
  const dataDir = path.join(temp, 'data')
  library = path.join(dataDir, 'queries')
  outside = path.join(temp, 'outside')
  await mkdir(outside, { recursive: true })
  const hub = createEventHub()
  hub.subscribe((event, payload) => events.push({ event, payload }))
  const settings = createSettingsStore(
    path.join(dataDir, 'settings.json'),
    defaultSettings({ downloadsDir: temp }),
  )
  const context = {
    dataDir,
    settings,
    events: hub,
    onClose: (cleanup: () => void | Promise<void>) => void cleanups.push(cleanup),
  }
  // The settings feature reads only `settings` of the desk's context; the rest (cache,
  // network, vault) has no part in these calls, and opening it would test other features.
  const settingsFeature = settingsHandlers(context as unknown as DeskContext)
  // Only these features' channels are called here; the dispatcher looks a handler up by name.
  const handlers = { ...settingsFeature, ...sqlLibraryHandlers(context) } as BridgeHandlers
  const dispatcher = createDispatcher(handlers)
  dispatch = (channel, input) => dispatcher.dispatch(channel, input)
})

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
  if (temp !== undefined) await rm(temp, { recursive: true, force: true })
})

describe('the saved-query library', () => {
  it('lives in <data folder>/queries by default and starts empty', async () => {
    const { folder, root } = await harness.value<{ folder: string; root: QueryFolder }>(
      'sqlLibrary.list',
    )
    expect(folder).toBe(library)
    expect(root.children).toEqual([])
  })

  it('picks up files written from outside and announces the change', async () => {
    const before = changeEvents()
    await mkdir(path.join(library, 'pulled'), { recursive: true })
    await writeFile(path.join(library, 'pulled', 'from-git.sql'), '-- title: From git\nselect 42\n')
    await expect.poll(changeEvents).toBeGreaterThan(before)
    const { root } = await harness.value<{ root: QueryFolder }>('sqlLibrary.list')
    const pulled = root.children.find((child) => child.path === 'pulled')
    expect(pulled?.kind === 'folder' ? pulled.children : []).toMatchObject([
      { path: 'pulled/from-git.sql', title: 'From git' },
    ])
  })

  it('follows the setting to another folder, watched as well', async () => {
    const refused = await harness.failure('settings.update', { sqlLibraryDir: 'relative/path' })
    expect(refused.code).toBe('VALIDATION_ERROR')
    const team = await mkdtemp(path.join(tmpdir(), 'infradesk-team-queries-'))
    try {
      await writeFile(path.join(team, 'shared.sql'), 'select 1')
      await harness.value('settings.update', { sqlLibraryDir: team })
      const { folder } = await harness.value<{ folder: string }>('sqlLibrary.list')
      expect(folder).toBe(team)
      expect(await listed()).toEqual(['shared.sql'])
      const before = changeEvents()
      await writeFile(path.join(team, 'added.sql'), 'select 2')
      await expect.poll(changeEvents).toBeGreaterThan(before)
      expect(await listed()).toEqual(['added.sql', 'shared.sql'])
      await harness.value('settings.update', { sqlLibraryDir: '' })
      expect((await harness.value<{ folder: string }>('sqlLibrary.list')).folder).toBe(library)
    } finally {
      await rm(team, { recursive: true, force: true })
    }
  })
  it('saves as a plain .sql file, header read back as title, description and parameters', async () => {
    const text = `${HEADER}\nselect * from orders where customer_id = :customer and id in (:ids)\n`
    const file = await harness.value<QueryFile>('sqlLibrary.saveAs', {
      path: 'orders/by-customer.sql',
      text,
    })
    expect(file).toMatchObject({
      path: 'orders/by-customer.sql',
      name: 'by-customer.sql',
      title: 'Orders of a customer',
      description: 'Open orders since a date.',
      parameters: [
        { name: 'customer', type: 'uuid', list: false },
        { name: 'ids', type: 'integer', list: true },
      ],
    })
    expect(await readFile(path.join(library, 'orders', 'by-customer.sql'), 'utf8')).toBe(text)
    // Atomic writes leave no temp files behind.
    expect(await readdir(path.join(library, 'orders'))).toEqual(['by-customer.sql'])
    const read = await harness.value<{ file: QueryFile; text: string }>('sqlLibrary.read', {
      path: 'orders/by-customer.sql',
    })
    expect(read.text).toBe(text)
    expect(await listed()).toEqual([
      'orders/',
      'orders/by-customer.sql',
      'pulled/',
      'pulled/from-git.sql',
    ])
  })

  it('refuses to save as over an existing file unless told to overwrite', async () => {
    const failure = await harness.failure('sqlLibrary.saveAs', {
      path: 'orders/by-customer.sql',
      text: 'select 1',
    })
    expect(failure.code).toBe('CONFLICT')
    await harness.value('sqlLibrary.saveAs', {
      path: 'scratch.sql',
      text: 'select 1',
    })
    await harness.value('sqlLibrary.saveAs', {
      path: 'scratch.sql',
      text: 'select 2',
      overwrite: true,
    })
    expect(await readFile(path.join(library, 'scratch.sql'), 'utf8')).toBe('select 2')
  })

  it('saves over a file, but not over a change made on disk since it was opened', async () => {
    const { file } = await harness.value<{ file: QueryFile }>('sqlLibrary.read', {
      path: 'scratch.sql',
    })
    const saved = await harness.value<QueryFile>('sqlLibrary.save', {
      path: 'scratch.sql',
      text: 'select 3',
      expectedModifiedAt: file.modifiedAt,
    })
    // Someone else writes it (a git pull) with a different modification time.
    await writeFile(path.join(library, 'scratch.sql'), 'select 4 -- theirs')
    await utimes(path.join(library, 'scratch.sql'), new Date(), new Date(saved.modifiedAt + 5_000))
    const failure = await harness.failure('sqlLibrary.save', {
      path: 'scratch.sql',
      text: 'select 5 -- mine',
      expectedModifiedAt: saved.modifiedAt,
    })
    expect(failure.code).toBe('CONFLICT')
    expect(await readFile(path.join(library, 'scratch.sql'), 'utf8')).toBe('select 4 -- theirs')
  })

  it('renames and moves, never over another file, and deletes', async () => {
    const moved = await harness.value<QueryFile>('sqlLibrary.rename', {
      from: 'scratch.sql',
      to: 'misc/deep/renamed.sql',
    })
    expect(moved.path).toBe('misc/deep/renamed.sql')
    expect(await listed()).toEqual([
      'misc/',
      'misc/deep/',
      'misc/deep/renamed.sql',
      'orders/',
      'orders/by-customer.sql',
      'pulled/',
      'pulled/from-git.sql',
    ])
    const clash = await harness.failure('sqlLibrary.rename', {
      from: 'misc/deep/renamed.sql',
      to: 'orders/by-customer.sql',
    })
    expect(clash.code).toBe('CONFLICT')
    await harness.value('sqlLibrary.delete', { path: 'misc/deep/renamed.sql' })
    expect(await listed()).not.toContain('misc/deep/renamed.sql')
    expect((await harness.failure('sqlLibrary.read', { path: 'misc/deep/renamed.sql' })).code).toBe(
      'NOT_FOUND',
    )
  })

  it('searches names and titles first, then text, with the line that matched', async () => {
    await harness.value('sqlLibrary.saveAs', {
      path: 'reports/revenue.sql',
      text: '-- title: Revenue\nselect sum(amount)\nfrom invoices\nwhere customer_id = :customer',
    })
    const hits = await harness.value<
      { file: QueryFile; matchedIn: string; line: number | null; snippet: string | null }[]
    >('sqlLibrary.search', { query: 'CUSTOMER' })
    expect(hits.map((hit) => [hit.file.path, hit.matchedIn, hit.line, hit.snippet])).toEqual([
      ['orders/by-customer.sql', 'name', null, null],
      ['reports/revenue.sql', 'text', 4, 'where customer_id = :customer'],
    ])
    const both = await harness.value<{ file: QueryFile }[]>('sqlLibrary.search', {
      query: 'revenue invoices',
    })
    expect(both.map((hit) => hit.file.path)).toEqual(['reports/revenue.sql'])
    expect(await harness.value('sqlLibrary.search', { query: 'nothing-like-this' })).toEqual([])
  })

  it('refuses paths that leave the folder: .., absolute, and links out', async () => {
    for (const bad of ['../escape.sql', '/etc/passwd.sql', 'a/../../b.sql', 'a\\b.sql', 'x.txt']) {
      const failure = await harness.failure('sqlLibrary.saveAs', { path: bad, text: 'select 1' })
      expect(failure.code, bad).toBe('VALIDATION_ERROR')
    }
    await writeFile(path.join(outside, 'secret.sql'), 'select secret')
    await symlink(outside, path.join(library, 'linked'))
    await symlink(path.join(outside, 'secret.sql'), path.join(library, 'leak.sql'))
    await symlink(path.join(outside, 'missing.sql'), path.join(library, 'dangling.sql'))
    expect((await harness.failure('sqlLibrary.read', { path: 'linked/secret.sql' })).code).toBe(
      'VALIDATION_ERROR',
    )
    expect((await harness.failure('sqlLibrary.read', { path: 'leak.sql' })).code).toBe(
      'VALIDATION_ERROR',
    )
    for (const target of ['linked/new.sql', 'dangling.sql']) {
      const failure = await harness.failure('sqlLibrary.save', { path: target, text: 'select 1' })
      expect(failure.code, target).toBe('VALIDATION_ERROR')
    }
    expect(await readdir(outside)).toEqual(['secret.sql'])
    // Links are not listed at all.
    expect((await listed()).some((entry) => /linked|leak|dangling/.test(entry))).toBe(false)
  })
})
