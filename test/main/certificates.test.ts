import { randomUUID } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchAllPages, PAGE_LIMIT } from '../../src/main/features/certificates'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ChannelOutput, Profile, Result } from '../../src/shared/bridge'
import { MAX_FIRST_ROWS, OPENING_CERTIFICATE_FILTER } from '../../src/shared/bridge'
import { defaultSortLocale, nameThenIdOrder } from '../../src/shared/certificate-order'
import { openTestDesk, type TestDesk } from '../support/desk'
import { makeSelfSigned, openssl, sha256Hex, splitPemBlocks } from '../support/tools'

/*
 * The certificates area through the desk's bridge, every part real: a sandbox with 1,200
 * certificates (three pages of op 16), the SQLite cache file, the keychain (gnome-keyring over
 * D-Bus), openssl-made upload material, files written to a temporary downloads folder.
 */

const KEYRING_HINT =
  'These tests need a Secret Service on D-Bus: ' +
  '`node scripts/with-keyring.mjs npx vitest run test/main/certificates.test.ts`.'
const TOTAL = 1_200
const PASSPHRASE = 'correct horse battery staple'

type List = ChannelOutput<'certificates.cached'>
type Check = ChannelOutput<'certificates.checkUpload'>

let sandbox: RunningSandbox
/** Its `carried` is checked for key material at the end. */
let desk: TestDesk
let profile: Profile

function serviceList(query: Record<string, unknown>) {
  const url = new URL('/api/ssl-certificates', sandbox.url)
  for (const [key, entry] of Object.entries(query)) url.searchParams.set(key, String(entry))
  return fetch(url, { headers: { authorization: `Bearer ${sandbox.tokens.admin}` } }).then(
    (response) => response.json() as Promise<{ data: { id: string }[]; meta: { total: number } }>,
  )
}

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(KEYRING_HINT)
  sandbox = await startSandbox({ port: 0, certificateCount: TOTAL })
  desk = await openTestDesk('certificates', { requestTimeoutMs: 30_000, restoreSandbox: true })
  profile = await desk.addProfile(sandbox, { name: 'Scale', color: '#2563eb' })
}, 120_000)

afterAll(async () => {
  await desk?.close()
  await sandbox?.close()
})

describe('the list: cache first, every page from the service', () => {
  it('starts empty, never fetched', async () => {
    const cached = await desk.value<List>('certificates.cached', { profileId: profile.id })
    expect(cached).toMatchObject({ rows: [], fetchedAt: null })
  })

  it('a refresh follows meta through every page and caches them all', async () => {
    const all = await desk.value<List>('certificates.refresh', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    expect(all.rows).toHaveLength(TOTAL)
    expect(new Set(all.rows.map((row) => row.id)).size).toBe(TOTAL)
    expect(all.offline).toBe(false)
    const cached = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    expect(cached.rows).toHaveLength(TOTAL)
    expect(cached.fetchedAt).toBe(all.fetchedAt)
    // Folders seen in the data, with their paths.
    const seed = sandbox.seed()
    for (const folder of cached.folders) expect(seed.certificateFolders).toContain(folder.id)
    expect(cached.folders.map((folder) => folder.path.join('/'))).toContain(
      'Production/APIs/Partners',
    )
    // Without showSystem, the cache answers as the service would.
    const visible = await desk.value<List>('certificates.cached', { profileId: profile.id })
    expect(visible.rows).toHaveLength((await serviceList({ limit: 1 })).meta.total)
    expect(visible.rows.some((row) => row.isSystem)).toBe(false)
  })

  it("keeps each profile's rows apart", async () => {
    const viewer = await desk.addProfile(
      { url: sandbox.url, tokens: { admin: sandbox.tokens.viewer } },
      { name: 'Scale (viewer)' },
    )
    const empty = await desk.value<List>('certificates.cached', {
      profileId: viewer.id,
      filter: { showSystem: true },
    })
    expect(empty).toMatchObject({ rows: [], folders: [], fetchedAt: null })
    const unknown = await desk.failure('certificates.cached', { profileId: randomUUID() })
    expect(unknown.code).toBe('NOT_FOUND')
    // Removing a profile forgets its cached certificates with its other lists.
    await desk.value('certificates.refresh', { profileId: viewer.id, filter: { search: 'www' } })
    await desk.value('profiles.remove', { id: viewer.id })
    const db = new Database(path.join(desk.dataDir, 'cache.sqlite'), { readonly: true })
    try {
      const left = db
        .prepare(
          `SELECT (SELECT count(*) FROM certificate_rows WHERE profile_id = @id)
                + (SELECT count(*) FROM certificate_items WHERE profile_id = @id)
                + (SELECT count(*) FROM certificate_lists WHERE profile_id = @id) AS n`,
        )
        .get({ id: viewer.id }) as { n: number }
      expect(left.n).toBe(0)
    } finally {
      db.close()
    }
    await desk.value('profiles.activate', { id: profile.id })
  })

  it('a filtered refresh replaces only the rows its filter covers', async () => {
    const expired = await desk.value<List>('certificates.refresh', {
      profileId: profile.id,
      filter: { status: 'expired', search: 'northwind', showSystem: true },
    })
    const fromService = await serviceList({
      status: 'expired',
      search: 'northwind',
      showSystem: true,
      limit: 500,
    })
    expect(expired.rows.map((row) => row.id).sort()).toEqual(
      fromService.data.map((item) => item.id).sort(),
    )
    expect(expired.rows.every((row) => row.status === 'expired')).toBe(true)
    const everything = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    expect(everything.rows).toHaveLength(TOTAL)
  })

  it('says how many system certificates the filter hides, so its count adds up to every cached one', async () => {
    const every = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    const system = every.rows.filter((row) => row.isSystem)
    expect(system.length).toBeGreaterThan(0)
    expect(every.systemHidden).toBe(0)
    const opening = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: OPENING_CERTIFICATE_FILTER,
    })
    expect(opening.rows.length + (opening.systemHidden ?? -1)).toBe(every.rows.length)
    expect(opening.systemHidden).toBe(system.length)
    // With a search, of the certificates it finds.
    const name = system[0]?.name ?? ''
    const searched = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { search: name },
    })
    const found = every.rows.filter((row) => row.name.toLowerCase().includes(name.toLowerCase()))
    expect(searched.systemHidden).toBe(found.filter((row) => row.isSystem).length)
    expect(searched.systemHidden).toBeGreaterThan(0)
  })

  it('answers the web host with the same list as JSON bytes, the rows unparsed in main', async () => {
    const parsedJson = async (channel: string, input: unknown) => {
      const text = (await desk.desk.dispatchJson(channel, input)).toString('utf8')
      desk.carried.push(text)
      return JSON.parse(text) as Result<unknown>
    }
    const filters = [
      { showSystem: true },
      {},
      { status: 'expired', search: 'NorthWind' },
      { type: 'internal', showSystem: true },
      { search: 'no such certificate anywhere' },
    ]
    for (const filter of filters) {
      const input = { profileId: profile.id, filter }
      expect(await parsedJson('certificates.cached', input)).toEqual(
        await desk.call('certificates.cached', input),
      )
    }
    // A refresh answers with what it cached.
    const refresh = { profileId: profile.id, filter: { search: 'www' } }
    const refreshed = await parsedJson('certificates.refresh', refresh)
    expect(refreshed).toMatchObject({ ok: true, value: { offline: false } })
    expect(refreshed).toEqual(await desk.call('certificates.cached', refresh))
    // A refusal is the same Result either way.
    const unknown = { profileId: randomUUID() }
    expect(await parsedJson('certificates.cached', unknown)).toEqual(
      await desk.call('certificates.cached', unknown),
    )
    expect(await parsedJson('certificates.cached', unknown)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })
  })

  it('sends the first screenful ahead: the first rows of the default order, and how many there are', async () => {
    const locale = defaultSortLocale()
    // The screen sorts by this order (test/renderer/certificate-order.test.ts holds it to that).
    const screenOrder = (rows: List['rows']) =>
      [...rows].sort(nameThenIdOrder(locale)).map((row) => row.id)
    // The list worker worked out the places in that order after the refresh (schema v17): the
    // screenful is read by them. Then again with them voided (main compares every name), and
    // the read that found them missing has the worker work them out once more.
    expect(await rankedIn(profile.id, locale)).toBe(locale)
    await checkScreenfuls(screenOrder, locale)
    const cacheFile = path.join(desk.dataDir, 'cache.sqlite')
    const writer = new Database(cacheFile)
    writer.pragma('busy_timeout = 5000')
    writer.prepare('DELETE FROM certificate_name_ranks WHERE profile_id = ?').run(profile.id)
    writer.close()
    await checkScreenfuls(screenOrder, locale)
    expect(await rankedIn(profile.id, locale)).toBe(locale)
  })

  /** The locale the profile's places are kept in, once they are (waits, bounded, for the worker). */
  async function rankedIn(profileId: string, locale: string): Promise<string | null> {
    const db = new Database(path.join(desk.dataDir, 'cache.sqlite'), { readonly: true })
    try {
      const read = db.prepare<[string], { locale: string }>(
        'SELECT locale FROM certificate_name_ranks WHERE profile_id = ?',
      )
      for (let waited = 0; waited < 200; waited += 1) {
        const kept = read.get(profileId)?.locale ?? null
        if (kept === locale) return kept
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      return read.get(profileId)?.locale ?? null
    } finally {
      db.close()
    }
  }

  async function checkScreenfuls(screenOrder: (rows: List['rows']) => string[], locale: string) {
    for (const filter of [{}, { showSystem: true }, { status: 'expired', search: 'NorthWind' }]) {
      const whole = await desk.value<List>('certificates.cached', { profileId: profile.id, filter })
      expect(whole.rows.length).toBeGreaterThan(20)
      expect(whole.firstOf).toBeUndefined()
      const first = { count: 20, locale }
      const input = { profileId: profile.id, filter, first }
      const screenful = await desk.value<List>('certificates.cached', input)
      expect(screenful.firstOf).toBe(whole.rows.length)
      expect(screenful.rows.map((row) => row.id)).toEqual(screenOrder(whole.rows).slice(0, 20))
      expect(screenful.rows).toEqual(
        screenful.rows.map((row) => whole.rows.find((entry) => entry.id === row.id)),
      )
      expect({ ...screenful, rows: [], firstOf: undefined }).toEqual({ ...whole, rows: [] })
      // The web host's JSON bytes carry the same answer.
      const text = (await desk.desk.dispatchJson('certificates.cached', input)).toString('utf8')
      expect(JSON.parse(text)).toEqual({ ok: true, value: screenful })
    }
    // A list no longer than the screenful comes whole, without firstOf.
    const few = { status: 'expired', search: 'NorthWind' }
    const all = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: few,
    })
    const asked = { count: all.rows.length, locale }
    expect(
      await desk.value<List>('certificates.cached', {
        profileId: profile.id,
        filter: few,
        first: asked,
      }),
    ).toEqual(all)
  }

  it("answers the active profile's first screenful before the app knows which profile that is", async () => {
    const first = { count: 50, locale: defaultSortLocale() }
    const early = await desk.value<ChannelOutput<'certificates.firstScreenful'>>(
      'certificates.firstScreenful',
      { first },
    )
    expect(early.profileId).toBe(profile.id)
    expect(early.list).toEqual(
      await desk.value<List>('certificates.cached', {
        profileId: profile.id,
        filter: OPENING_CERTIFICATE_FILTER,
        first,
      }),
    )
    expect(early.list?.rows).toHaveLength(50)
    // A locale that is not one, or a screenful beyond the limit, is refused on the field.
    const badLocale = await desk.failure('certificates.firstScreenful', {
      first: { count: 50, locale: 'not a locale!' },
    })
    expect(badLocale.code).toBe('VALIDATION_ERROR')
    expect(badLocale.details).toEqual([{ path: ['first', 'locale'], message: expect.any(String) }])
    const tooMany = await desk.failure('certificates.cached', {
      profileId: profile.id,
      first: { count: MAX_FIRST_ROWS + 1, locale: 'en' },
    })
    expect(tooMany.details).toEqual([{ path: ['first', 'count'], message: expect.any(String) }])
  })

  it('the details of one certificate: every field the service sent, facts from its PEM', async () => {
    const [first] = (await desk.value<List>('certificates.cached', { profileId: profile.id })).rows
    const details = await desk.value<ChannelOutput<'certificates.details'>>(
      'certificates.details',
      {
        profileId: profile.id,
        id: first?.id,
      },
    )
    expect(details.item).toMatchObject({ id: first?.id, name: first?.name })
    expect(details.facts?.fingerprintSha256).toBe(details.item?.['fingerprintSha256'])
    expect(details.facts?.subject).toContain('CN=')
  })
})

describe('paging without meta', () => {
  it('goes on past a short page until an empty one, and takes the page size the service reports', async () => {
    const pages: Record<string, unknown>[] = []
    const ids = Array.from({ length: 1_234 }, (_, index) => ({
      id: `c-${index}`,
      name: `c${index}`,
    }))
    const { entries, completeness } = await fetchAllPages({ search: 'x' }, async (query) => {
      pages.push(query)
      const page = Number(query['page'])
      return { data: ids.slice((page - 1) * PAGE_LIMIT, page * PAGE_LIMIT) }
    })
    expect(entries).toHaveLength(1_234)
    expect(completeness).toBeNull()
    // Without meta a short page proves nothing (the service may cap the size): page 4 is empty.
    expect(pages.map((query) => query['page'])).toEqual([1, 2, 3, 4])
    expect(pages[0]).toMatchObject({ search: 'x', limit: PAGE_LIMIT, showSystem: false })

    // A service that caps the page at 100 and says so in meta.limit, without a total: its
    // own short page ends the list.
    let cappedCalls = 0
    const capped = await fetchAllPages({}, async (query) => {
      cappedCalls += 1
      const page = Number(query['page'])
      return { data: ids.slice((page - 1) * 100, page * 100), meta: { page, limit: 100 } }
    })
    expect(capped.entries).toHaveLength(1_234)
    expect(cappedCalls).toBe(13)

    // A service that ignores `page` (the same full page each time) does not loop for ever.
    let calls = 0
    const ignoring = await fetchAllPages({}, async () => {
      calls += 1
      return { data: ids.slice(0, PAGE_LIMIT) }
    })
    expect(ignoring.entries).toHaveLength(PAGE_LIMIT)
    expect(calls).toBe(2)
  })
})

describe('upload: checked locally before anything is sent', () => {
  let good: { certificatePem: string; privateKeyPem: string }
  let other: { certificatePem: string; privateKeyPem: string }
  const check = (material: Record<string, unknown>) =>
    desk.value<Check>('certificates.checkUpload', material)
  const pem = (text: string) => ({ pem: text })

  beforeAll(async () => {
    good = await makeSelfSigned(desk.temp, 'upload.example.test', {
      subjectAltName: 'DNS:upload.example.test,IP:127.0.0.1',
    })
    other = await makeSelfSigned(desk.temp, 'other.example.test')
  })

  it('a valid pair: no problems, a preview read from the certificate, an expiry warning', async () => {
    const result = await check({
      certificate: pem(good.certificatePem),
      privateKey: pem(good.privateKeyPem),
    })
    expect(result.problems).toEqual([])
    expect(result.preview).toMatchObject({
      subject: 'CN=upload.example.test',
      subjectAltNames: ['upload.example.test', '127.0.0.1'],
      selfSigned: true,
      keyAlgorithm: 'EC prime256v1',
    })
    expect(result.warnings).toEqual([
      { field: 'certificatePem', message: expect.stringMatching(/expires on .+, in 2\d days/) },
    ])
  })

  it('refuses garbage, a mismatched key, an encrypted key, a misordered chain, with reasons', async () => {
    const garbage = await check({ certificate: pem('hello'), privateKey: pem('world') })
    expect(garbage.problems).toEqual([
      { field: 'certificatePem', message: expect.stringMatching(/No PEM certificate found/) },
      { field: 'privateKeyPem', message: expect.stringMatching(/No PEM private key found/) },
    ])
    const damaged = await check({
      certificate: pem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'),
      privateKey: pem(good.privateKeyPem),
    })
    expect(damaged.problems[0]?.message).toBe(
      'The certificate is not a readable X.509 certificate (damaged or not PEM)',
    )

    const mismatch = await check({
      certificate: pem(good.certificatePem),
      privateKey: pem(other.privateKeyPem),
    })
    expect(mismatch.problems).toEqual([
      { field: 'privateKeyPem', message: expect.stringMatching(/does not belong/) },
    ])

    const keyFile = await desk.temp.write('good.key', good.privateKeyPem)
    const encryptedKey = await openssl([
      'pkcs8',
      '-topk8',
      '-in',
      keyFile,
      '-v2',
      'aes-256-cbc',
      '-passout',
      `pass:${PASSPHRASE}`,
    ])
    const encrypted = await check({
      certificate: pem(good.certificatePem),
      privateKey: pem(encryptedKey),
    })
    expect(encrypted.encryptedKey).toBe(true)
    expect(encrypted.problems[0]?.message).toMatch(/encrypted with a passphrase/)

    // A real chain from the sandbox, root before intermediate: out of order.
    const id = sandbox.seed().certificates.withPrivateKey[0] as string
    const fullchain = await exportFromService(id, 'fullchain')
    const [leaf, ...chain] = splitPemBlocks(fullchain.toString('utf8')).map((block) => block.pem)
    const key = (await exportFromService(id, 'private-key')).toString('utf8')
    const ordered = await check({
      certificate: pem(leaf ?? ''),
      privateKey: pem(key),
      chain: pem(chain.join('')),
    })
    expect(ordered.problems).toEqual([])
    expect(ordered.chain).toHaveLength(2)
    const misordered = await check({
      certificate: pem(leaf ?? ''),
      privateKey: pem(key),
      chain: pem([...chain].reverse().join('')),
    })
    expect(misordered.problems).toEqual([
      { field: 'chainPem', message: expect.stringMatching(/not in order/) },
    ])
  })

  it('upload runs the same checks in main: a mismatched key never reaches the service', async () => {
    const before = (await serviceList({ limit: 1, showSystem: true })).meta.total
    const refused = await desk.failure('certificates.upload', {
      profileId: profile.id,
      name: 'mismatched',
      folderId: null,
      certificate: pem(good.certificatePem),
      privateKey: pem(other.privateKeyPem),
    })
    expect(refused.code).toBe('VALIDATION_ERROR')
    expect(refused.details).toEqual([
      { path: ['privateKeyPem'], message: expect.stringMatching(/does not belong/) },
    ])
    expect((await serviceList({ limit: 1, showSystem: true })).meta.total).toBe(before)
  })

  it('a valid upload is cached at once; 409 on a taken name names the field', async () => {
    const folderId = sandbox.seed().certificateFolders[0] as string
    const uploaded = await desk.value<ChannelOutput<'certificates.upload'>>('certificates.upload', {
      profileId: profile.id,
      name: 'uploaded-by-test',
      folderId,
      certificate: pem(good.certificatePem),
      privateKey: pem(good.privateKeyPem),
    })
    const cached = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { search: 'uploaded-by-test' },
    })
    expect(cached.rows.map((row) => row.id)).toEqual([uploaded.item['id']])
    expect(cached.rows[0]?.folderId).toBe(folderId)

    const taken = await desk.failure('certificates.upload', {
      profileId: profile.id,
      name: 'UPLOADED-BY-TEST',
      folderId: null,
      certificate: pem(good.certificatePem),
      privateKey: pem(good.privateKeyPem),
    })
    expect(taken).toMatchObject({ code: 'CONFLICT', status: 409 })
    expect(taken.details).toEqual([{ path: ['name'], message: expect.any(String) }])
  })
})

async function exportFromService(id: string, format: string): Promise<Buffer> {
  const response = await fetch(new URL(`/api/certificates/${id}/export`, sandbox.url), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${sandbox.tokens.admin}`,
      accept: 'application/octet-stream',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ format }),
  })
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

describe('export: main writes the file, the renderer learns path, size and hash', () => {
  const transfersOf = () => {
    const db = new Database(path.join(desk.dataDir, 'cache.sqlite'), { readonly: true })
    try {
      return db
        .prepare('SELECT * FROM transfers WHERE kind = ? ORDER BY started_at')
        .all('certificate') as Record<string, unknown>[]
    } finally {
      db.close()
    }
  }

  it('a pkcs12 with a passphrase: the file on disk, its hash, a transfer without the passphrase', async () => {
    const id = sandbox.seed().certificates.withPrivateKey[0] as string
    const name = (
      await desk.value<ChannelOutput<'certificates.details'>>('certificates.details', {
        profileId: profile.id,
        id,
        readPem: false,
      })
    ).item?.['name']
    const saved = await desk.value<NonNullable<ChannelOutput<'certificates.export'>>>(
      'certificates.export',
      { profileId: profile.id, id, format: 'pkcs12', passphrase: PASSPHRASE },
    )
    expect(saved.path).toBe(path.join(desk.downloads, `${String(name)}.p12`))
    const bytes = await readFile(saved.path)
    expect(saved).toMatchObject({ size: bytes.length, sha256: sha256Hex(bytes) })
    const again = await desk.value<NonNullable<ChannelOutput<'certificates.export'>>>(
      'certificates.export',
      { profileId: profile.id, id, format: 'pkcs12', passphrase: PASSPHRASE },
    )
    expect(path.basename(again.path)).toBe(`${String(name)} (2).p12`)
    const transfer = transfersOf().find((row) => row['id'] === saved.transferId)
    expect(transfer).toMatchObject({
      state: 'completed',
      destination: saved.path,
      sha256: saved.sha256,
      bytes_done: saved.size,
      profile_id: profile.id,
    })
    expect(JSON.parse(String(transfer?.['source_json']))).toEqual({
      certificateId: id,
      format: 'pkcs12',
      encrypted: true,
    })
    expect(JSON.stringify(transfersOf())).not.toContain(PASSPHRASE)
  })

  it('refusals leave no file: jks without a passphrase, a private key the service lacks', async () => {
    const before = await readdir(desk.downloads)
    const id = sandbox.seed().certificates.withPrivateKey[0] as string
    const noPassphrase = await desk.failure('certificates.export', {
      profileId: profile.id,
      id,
      format: 'jks',
    })
    expect(noPassphrase.details).toEqual([{ path: ['passphrase'], message: expect.any(String) }])
    const keyless = sandbox.seed().certificates.withoutPrivateKey[0] as string
    const refused = await desk.failure('certificates.export', {
      profileId: profile.id,
      id: keyless,
      format: 'private-key',
    })
    expect(refused.code).toBe('UNPROCESSABLE_ENTITY')
    expect(await readdir(desk.downloads)).toEqual(before)
    const failed = transfersOf().filter((row) => row['state'] === 'failed')
    expect(failed).toEqual([
      expect.objectContaining({
        error_code: 'UNPROCESSABLE_ENTITY',
        destination: null,
        sha256: null,
      }),
    ])
  })
})

describe('moves and offline', () => {
  it('moves certificates and a folder; a move into its own subtree carries the field', async () => {
    const seed = sandbox.seed()
    const tree = seed.certificateFolderTree
    const archive = tree.find((folder) => folder.name === 'Archive')?.id as string
    const archive2023 = tree.find((folder) => folder.parentId === archive)?.id as string
    const staging = tree.find((folder) => folder.name === 'Staging')?.id as string
    const { rows } = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { search: 'scale-000' },
    })
    const ids = rows.slice(0, 3).map((row) => row.id)
    expect(
      await desk.value('certificates.move', { profileId: profile.id, ids, folderId: staging }),
    ).toEqual({
      moved: 3,
    })
    const inside = await desk.failure('certificates.moveFolder', {
      profileId: profile.id,
      folderId: archive,
      parentId: archive2023,
    })
    expect(inside.details).toEqual([{ path: ['parentId'], message: expect.any(String) }])
    await desk.value('certificates.moveFolder', {
      profileId: profile.id,
      folderId: archive,
      parentId: staging,
    })
    const refreshed = await desk.value<List>('certificates.refresh', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    for (const id of ids) {
      expect(refreshed.rows.find((row) => row.id === id)?.folderId).toBe(staging)
    }
    expect(refreshed.folders.find((folder) => folder.id === archive2023)?.path).toEqual([
      'Staging',
      'Archive',
      '2023',
    ])
  })

  it('with the service gone, the cache answers, filters applied, flagged offline', async () => {
    await sandbox.close()
    const offline = await desk.value<List>('certificates.refresh', {
      profileId: profile.id,
      filter: { search: 'northwind', status: 'expired' },
    })
    expect(offline.offline).toBe(true)
    expect(offline.error?.code).toBe('OFFLINE')
    expect(offline.rows.length).toBeGreaterThan(0)
    expect(offline.rows.every((row) => row.status === 'expired')).toBe(true)
    const all = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    expect(all.rows.length).toBe(TOTAL + 1)
    expect(all.offline).toBe(true)
  })
})

describe('the desktop app: save and open dialogs run by main', () => {
  // Electron's dialogs cannot run here; the shell's DesktopIntegration is given as a stand-in
  // that answers as a user would (a path, or null for Cancel). Everything else is real.
  let desktopSandbox: RunningSandbox
  let desktopDesk: TestDesk
  let desktopProfile: Profile
  let nextSavePath: string | null = null
  let nextOpenPath: string | null = null
  const titles: string[] = []

  beforeAll(async () => {
    desktopSandbox = await startSandbox({ port: 0 })
    desktopDesk = await openTestDesk('certificates-desktop', {
      mode: 'desktop',
      defaultDownloadsDir: desk.downloads,
      desktop: {
        chooseSavePath: async ({ title }) => {
          titles.push(title)
          return nextSavePath
        },
        chooseOpenFile: async ({ title }) => {
          titles.push(title)
          return nextOpenPath
        },
        showItemInFolder: () => undefined,
        openPath: async () => undefined,
        notify: () => undefined,
      },
    })
    desktopProfile = await desktopDesk.addProfile(desktopSandbox, {
      name: 'Desktop',
      color: '#2563eb',
    })
  }, 120_000)

  afterAll(async () => {
    // What this desk carried is checked for key material with the rest, below.
    desk.carried.push(...(desktopDesk?.carried ?? []))
    await desktopDesk?.close()
    await desktopSandbox?.close()
  })

  const dispatch = (channel: string, input: unknown) => desktopDesk.call(channel, input)

  it('export: the chosen path, replaced since the dialog asked; Cancel writes nothing', async () => {
    const id = desktopSandbox.seed().certificates.withPrivateKey[0] as string
    const target = await desk.temp.write('chosen.pem', 'the old file')
    nextSavePath = target
    const saved = await dispatch('certificates.export', {
      profileId: desktopProfile.id,
      id,
      format: 'fullchain',
    })
    expect(saved.ok && saved.value).toMatchObject({ path: target })
    expect(splitPemBlocks(await readFile(target, 'utf8'))).toHaveLength(3)
    expect(titles.at(-1)).toBe('Save Full chain')

    nextSavePath = null
    const before = await readdir(desk.temp.dir)
    const cancelled = await dispatch('certificates.export', {
      profileId: desktopProfile.id,
      id,
      format: 'der',
    })
    expect(cancelled).toEqual({ ok: true, value: null })
    expect(await readdir(desk.temp.dir)).toEqual(before)
  })

  it('upload: main reads the chosen files; their text never comes back', async () => {
    const material = await makeSelfSigned(desk.temp, 'desktop.example.test')
    nextOpenPath = await desk.temp.write('desktop.crt', material.certificatePem)
    const certificate = await dispatch('certificates.chooseFile', { field: 'certificatePem' })
    nextOpenPath = await desk.temp.write('desktop.key', material.privateKeyPem)
    const key = await dispatch('certificates.chooseFile', { field: 'privateKeyPem' })
    if (!certificate.ok || !key.ok) throw new Error('chooseFile failed')
    const staged = {
      certificate: certificate.value as { stagedId: string; fileName: string },
      key: key.value as { stagedId: string; fileName: string },
    }
    expect(staged.key.fileName).toBe('desktop.key')
    expect(titles.at(-1)).toBe('Choose the private key (PEM)')
    const input = {
      profileId: desktopProfile.id,
      name: 'from-files',
      folderId: null,
      certificate: { stagedId: staged.certificate.stagedId },
      privateKey: { stagedId: staged.key.stagedId },
    }
    const checked = await dispatch('certificates.checkUpload', input)
    expect(checked.ok && (checked.value as Check).preview?.subject).toBe('CN=desktop.example.test')
    const uploaded = await dispatch('certificates.upload', input)
    expect(uploaded.ok).toBe(true)
    // Used once, then dropped from memory.
    const again = await dispatch('certificates.upload', { ...input, name: 'again' })
    expect(again.ok === false && again.error.message).toMatch(/choose it again/)

    nextOpenPath = null
    expect(await dispatch('certificates.chooseFile', { field: 'chainPem' })).toEqual({
      ok: true,
      value: null,
    })
  })
})

describe('key material', () => {
  it('no private key material ever crossed the bridge', () => {
    // Keys went *in* (upload material, pkcs12 and private-key exports); no answer holds one.
    expect(desk.carried.length).toBeGreaterThan(10)
    // A PEM block with content (JSON-escaped newlines); messages may name the labels.
    const pemBlock = /-----BEGIN [A-Z ]+-----(\\[rn]|\s)+[A-Za-z0-9+/]{16}/
    for (const answer of desk.carried) expect(answer).not.toMatch(pemBlock)
  })
})
