import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PAGES } from '../../src/main/features/certificates'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ChannelOutput, Profile, Result } from '../../src/shared/bridge'
import { readIncident, readStatusPage } from '../../src/shared/status-page'
import { parseTimestamp } from '../../src/shared/time'
import { openTestDesk, type TestDesk } from '../support/desk'
import { openssl, sha256Hex } from '../support/tools'
import { waitForValue } from '../support/wait-for'
import { listenLocally } from '../support/local-server'

/*
 * The app against the sandbox's second personality (`variant: true`), which makes the other
 * reasonable choice wherever the spec says "not shown" (docs/SERVICE.md lists them):
 * op 16 without `meta` and with its page size capped at 25, op 21 in other field names and
 * epoch seconds, sessions in epoch seconds, op 13 answering another status, op 12 in its JSON
 * form and op 15 with inline base64 content. Every part real, as in certificates.test.ts: the
 * desk's bridge, the SQLite cache, the keychain (run under scripts/with-keyring.mjs), files
 * on disk checked with openssl and sha256.
 */

const KEYRING_HINT =
  'These tests need a Secret Service on D-Bus: ' +
  '`node scripts/with-keyring.mjs npx vitest run test/main/variant.test.ts`.'
/** Certificates in the variant sandbox: three pages of its 25 (25 + 25 + 7). */
const TOTAL = 57
const PASSPHRASE = 'correct horse battery staple'

type List = ChannelOutput<'certificates.cached'>
type StatusPageState = ChannelOutput<'statusPage.refresh'>

let sandbox: RunningSandbox
let desk: TestDesk
let profile: Profile
const finished = new Map<string, ChannelOutput<'volumes.export'>>()

/** A session-only profile on `baseUrl` (the sandbox or a relay in front of it). */
async function addProfile(name: string, baseUrl: string): Promise<Profile> {
  return desk.addProfile(
    { url: baseUrl, tokens: sandbox.tokens },
    { name, color: '#2563eb', sessionOnly: true },
  )
}

/** Every certificate the variant holds, walked by hand with its own page size. */
async function serviceIds(): Promise<string[]> {
  const ids: string[] = []
  for (let page = 1; ; page += 1) {
    const url = new URL('/api/ssl-certificates', sandbox.url)
    url.search = new URLSearchParams({ page: String(page), showSystem: 'true' }).toString()
    const answer = (await fetch(url, {
      headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
    }).then((response) => response.json())) as { data: { id: string }[] }
    if (answer.data.length === 0) return ids
    ids.push(...answer.data.map((item) => item.id))
  }
}

/**
 * A relay in front of the sandbox that rewrites op 16's answers (another service's paging),
 * passing every other request through unchanged.
 */
async function startListRelay(
  rewrite: (page: number, answer: { data: unknown[] }) => unknown,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(sandbox.url)
  const server = createServer((incoming, outgoing) => {
    const isList = (incoming.url ?? '').startsWith('/api/ssl-certificates?')
    const relayed = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host, 'accept-encoding': 'identity' },
      },
      (answer) => {
        if (!isList || answer.statusCode !== 200) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const page = Number(new URL(incoming.url ?? '/', sandbox.url).searchParams.get('page'))
          const body = rewrite(page, JSON.parse(Buffer.concat(chunks).toString('utf8')))
          outgoing.writeHead(200, { 'content-type': 'application/json' })
          outgoing.end(JSON.stringify(body))
        })
      },
    )
    relayed.on('error', () => outgoing.destroy())
    incoming.pipe(relayed)
  })
  const { url, close } = await listenLocally(server)
  return { url, close }
}

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(KEYRING_HINT)
  sandbox = await startSandbox({ port: 0, variant: true, certificateCount: TOTAL })
  desk = await openTestDesk('variant', { requestTimeoutMs: 30_000 })
  desk.desk.onEvent((event, payload) => {
    if (event !== 'transfers.finished') return
    const transfer = payload as ChannelOutput<'volumes.export'>
    finished.set(transfer.id, transfer)
  })
  profile = await addProfile('Variant', sandbox.url)
}, 120_000)

afterAll(async () => {
  await desk?.close()
  await sandbox?.close()
})

describe('op 16 without meta, its page size capped at 25', () => {
  it('brings all 57 (a page shorter than the 500 asked does not end the list)', async () => {
    const expected = await serviceIds()
    expect(expected).toHaveLength(TOTAL)
    const list = await desk.value<List>('certificates.refresh', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    expect(list.rows.map((row) => row.id).sort()).toEqual([...expected].sort())
    expect(list.completeness).toBeNull()
    const cached = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    expect(cached.rows).toHaveLength(TOTAL)
  })

  it('says so when meta.total disagrees with what arrived, and the cache keeps the note', async () => {
    // Another service: the variant's pages of 25, with a total of 60 it never delivers.
    const relay = await startListRelay((page, answer) => ({
      ...answer,
      meta: { page, limit: 25, total: 60 },
    }))
    const other = await addProfile('Total says 60', relay.url)
    try {
      const list = await desk.value<List>('certificates.refresh', {
        profileId: other.id,
        filter: { showSystem: true },
      })
      expect(list.rows).toHaveLength(TOTAL)
      expect(list.completeness).toMatchObject({
        reason: 'total-mismatch',
        received: TOTAL,
        expected: 60,
        message: '57 of at least 60: the service stopped answering pages',
      })
      const cached = await desk.value<List>('certificates.cached', { profileId: other.id })
      expect(cached.completeness).toEqual(list.completeness)
      // The web transport's JSON answer carries it too.
      const json = JSON.parse(
        (await desk.desk.dispatchJson('certificates.cached', { profileId: other.id })).toString(),
      ) as Result<List>
      expect(json.ok && json.value.completeness).toEqual(list.completeness)
    } finally {
      await relay.close()
    }
    // Offline: the refresh fails to connect, the cached list still says it.
    const offline = await desk.value<List>('certificates.refresh', {
      profileId: other.id,
      filter: { showSystem: true },
    })
    expect(offline.offline).toBe(true)
    expect(offline.rows).toHaveLength(TOTAL)
    expect(offline.completeness?.message).toBe(
      '57 of at least 60: the service stopped answering pages',
    )
  })

  it(`says so when the walk ends at its bound of ${MAX_PAGES} pages`, async () => {
    // A service that sends one new certificate on every page, for ever.
    const relay = await startListRelay((page, answer) => {
      const [first] = answer.data as Record<string, unknown>[]
      return { data: [{ ...first, id: `endless-${page}`, name: `endless ${page}` }] }
    })
    const endless = await addProfile('Endless', relay.url)
    try {
      const list = await desk.value<List>('certificates.refresh', { profileId: endless.id })
      expect(list.rows).toHaveLength(MAX_PAGES)
      expect(list.completeness).toMatchObject({
        reason: 'page-bound',
        received: MAX_PAGES,
        expected: MAX_PAGES + 1,
        pages: MAX_PAGES,
      })
      expect(list.completeness?.message).toBe(
        '2,000 of at least 2,001: the app stopped after 2,000 pages while the service was ' +
          'still sending new certificates',
      )
    } finally {
      await relay.close()
    }
  })
})

describe('op 21 in other field names and epoch seconds', () => {
  it('reads title, overall state, incident states and start times by their synonyms', async () => {
    const state = await desk.value<StatusPageState>('statusPage.refresh', { profileId: profile.id })
    expect(state.page).not.toBeNull()
    const page = readStatusPage(state.page ?? {})
    expect(page.title).toBe('Northwind Status')
    expect(page.url).toBe('https://status.northwind.example')
    expect(page.overall.level).not.toBeNull()
    expect(page.generatedAt).toBeGreaterThan(Date.now() - 60_000)
    expect(page.components.length).toBeGreaterThan(0)
    for (const component of page.components) expect(component.status.level).not.toBeNull()

    const seed = sandbox.seed()
    const incidents = state.items.map((item) => readIncident(item))
    expect(incidents.map((incident) => incident.id)).toEqual(
      expect.arrayContaining([...seed.incidents.open, ...seed.incidents.resolved]),
    )
    for (const incident of incidents) {
      expect(incident.title).toEqual(expect.any(String))
      expect(incident.status.stage).not.toBeNull()
      // Epoch seconds read as the same instant an ISO date would be: within the seed's years.
      expect(incident.startedAt).toBeGreaterThan(Date.now() - 5 * 365 * 86_400_000)
      expect(incident.startedAt).toBeLessThanOrEqual(Date.now())
      expect(incident.open).toBe(seed.incidents.open.includes(incident.id))
    }
    const open = incidents.find((incident) => incident.open)
    expect(open?.status.stage).toMatch(/^(investigating|identified|monitoring)$/)
  })

  it('keeps every field it has no name for, on the page and on each incident', async () => {
    const state = await desk.value<StatusPageState>('statusPage.cached', { profileId: profile.id })
    const page = readStatusPage(state.page ?? {})
    expect(page.extras).toEqual(
      expect.arrayContaining([
        ['timezone', 'UTC'],
        ['subscriberCount', 1284],
        ['page.slug', 'northwind'],
      ]),
    )
    for (const item of state.items) {
      expect(readIncident(item).extras).toEqual([['shortlink', expect.stringMatching(/^https:/)]])
    }
  })

  it('resolves an incident through the variant and reads its new state', async () => {
    const [incidentId] = sandbox.seed().incidents.open
    const outcome = await desk.value<ChannelOutput<'statusPage.resolveIncident'>>(
      'statusPage.resolveIncident',
      { profileId: profile.id, incidentId },
    )
    const after = outcome.page.items.find((item) => item.id === incidentId)
    expect(after && readIncident(after)).toMatchObject({
      open: false,
      status: { stage: 'resolved' },
    })
    const log = await desk.value<{ message: string | null }[]>('activity.list', {
      profileId: profile.id,
    })
    expect(log[0]?.message).toBe('"Delayed webhook deliveries" resolved')
  })
})

describe('sessions in epoch seconds (op 1)', () => {
  it('are read as the same instants the default sandbox sends in milliseconds', async () => {
    const list = await desk.value<ChannelOutput<'sessions.refresh'>>('sessions.refresh', {
      profileId: profile.id,
    })
    expect(list.items.length).toBeGreaterThan(0)
    const now = Date.now()
    for (const session of list.items) {
      expect(session.createdAt).toBeLessThan(1e12)
      const created = parseTimestamp(session.createdAt)
      const expires = parseTimestamp(session.expiresAt)
      expect(created).toBe(session.createdAt * 1000)
      expect(created).toBeLessThanOrEqual(now)
      expect(created).toBeGreaterThan(now - 5 * 365 * 86_400_000)
      expect(expires).toBeGreaterThan(created ?? Number.POSITIVE_INFINITY)
    }
    expect(list.items.filter((session) => session.isCurrent)).toHaveLength(1)
  })
})

describe('op 13 answering another status after resolve', () => {
  it('shows and records whatever status comes back', async () => {
    const [id] = sandbox.seed().migrations.needs_attention
    const migration = await desk.value<ChannelOutput<'migrations.resolve'>>('migrations.resolve', {
      profileId: profile.id,
      id,
      authoritativeSide: 'target',
    })
    expect(migration.status).toBe('cleanup_pending')
    const log = await desk.value<{ operation: string; message: string | null }[]>('activity.list', {
      profileId: profile.id,
    })
    expect(log[0]).toMatchObject({ operation: 'resolveMigration' })
    expect(log[0]?.message).toContain('cleanup_pending')
  })
})

describe('exports in the other forms', () => {
  it('op 12 as JSON (base64 or utf8 content): files openssl reads, the certificate itself', async () => {
    const id = sandbox.seed().certificates.withPrivateKey[0] as string
    const details = await desk.value<ChannelOutput<'certificates.details'>>(
      'certificates.details',
      {
        profileId: profile.id,
        id,
        readPem: true,
      },
    )
    // The details pane's facts come from op 12's pem export, here in its JSON form.
    expect(details.factsError).toBeNull()
    expect(details.facts?.fingerprintSha256).toBe(details.item?.['fingerprintSha256'])

    const exported = async (format: string, passphrase?: string) => {
      const saved = await desk.value<NonNullable<ChannelOutput<'certificates.export'>>>(
        'certificates.export',
        { profileId: profile.id, id, format, ...(passphrase ? { passphrase } : {}) },
      )
      const bytes = await readFile(saved.path)
      expect(saved).toMatchObject({ size: bytes.length, sha256: sha256Hex(bytes) })
      return saved.path
    }
    const fingerprint = String(details.item?.['fingerprintSha256']).replace(/:/g, '')
    const pem = await exported('pem')
    expect(await openssl(['x509', '-in', pem, '-noout', '-fingerprint', '-sha256'])).toContain(
      String(details.item?.['fingerprintSha256']),
    )
    const der = await exported('der')
    const derBytes = await readFile(der)
    expect(createHash('sha256').update(derBytes).digest('hex').toUpperCase()).toBe(fingerprint)
    await openssl(['x509', '-inform', 'DER', '-in', der, '-noout', '-subject'])
    const p12 = await exported('pkcs12', PASSPHRASE)
    const inside = await openssl(['pkcs12', '-in', p12, '-passin', `pass:${PASSPHRASE}`, '-nodes'])
    expect(inside).toContain('BEGIN CERTIFICATE')
    expect(inside).toContain('PRIVATE KEY')
    const key = await exported('private-key')
    await openssl(['pkey', '-in', key, '-noout'])
  })

  it('op 15 with inline base64 content: the archive on disk matches its sha256 and size', async () => {
    const volume = sandbox.seed().volumes.find((candidate) => candidate.dataBytes < 16 * 2 ** 20)
    if (!volume) throw new Error('no small volume in the seed')
    // The variant answers op 15 with the archive itself: no link to follow.
    const answer = (await fetch(
      new URL(`/api/docker/nodes/${volume.nodeId}/volumes/${volume.name}/export`, sandbox.url),
      { headers: { authorization: `Bearer ${sandbox.tokens.admin}` } },
    ).then((response) => response.json())) as { data: Record<string, unknown> }
    expect(answer.data).not.toHaveProperty('downloadUrl')
    expect(answer.data['content']).toEqual(expect.any(String))

    const started = await desk.value<ChannelOutput<'volumes.export'>>('volumes.export', {
      profileId: profile.id,
      nodeId: volume.nodeId,
      name: volume.name,
    })
    const ended = await waitForValue(() => finished.get(started.id), {
      what: 'the volume export to finish',
    })
    expect(ended).toMatchObject({ state: 'completed', sha256: answer.data['sha256'] })
    const bytes = await readFile(ended.destination ?? '')
    expect(bytes.length).toBe(answer.data['sizeBytes'])
    expect(bytes.length).toBe(volume.sizeBytes)
    expect(sha256Hex(bytes)).toBe(answer.data['sha256'])
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
  })
})
