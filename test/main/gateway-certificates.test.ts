import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchAllPages } from '../../src/main/features/certificates'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ChannelOutput, Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { call } from '../support/sandbox-process'
import { armRateLimit } from '../support/rate-limit'
import {
  keytoolList,
  makeSelfSigned,
  makeTempDir,
  openssl,
  run,
  sha256Hex,
  splitPemBlocks,
} from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The certificates area against a real deployment's rules (the sandbox's gateway flavour),
 * through the desk's bridge, every part real (keychain, SQLite, openssl, keytool, unzip):
 * - op 16 refuses the app's page size of 500: the walk learns 100 from the refusal, keeps it for
 *   the profile (the next refresh, after a restart too, asks 100 at once), reads `pagination`,
 *   and lists every certificate whatever the order (newest first) and a 429 on the way;
 * - op 12 exports an internal certificate by its `internalCertId`, as the raw file (pkcs12, a
 *   ZIP pem-bundle saved as .zip); acme and upload certificates' public parts are written from
 *   the listed PEM; their key formats are refused with the reason.
 */

const KEYRING_HINT =
  'These tests need a Secret Service on D-Bus: ' +
  '`node scripts/with-keyring.mjs npx vitest run test/main/gateway-certificates.test.ts`.'
const PASSPHRASE = 'correct horse battery staple'
/** More than two pages of 100, so the walk pages and a 429 can meet it mid-walk. */
const TOTAL = 230

type List = ChannelOutput<'certificates.cached'>
type Saved = NonNullable<ChannelOutput<'certificates.export'>>

let sandbox: RunningSandbox
let desk: TestDesk
let profile: Profile
let temp: TempDir
/**
 * The sandbox's rate limiter's clock: still, so that no request of the file leaves its sliding
 * 60 s window however long the file takes on a loaded machine; moved only on purpose below.
 */
let rateLimitNow = Date.now()

/**
 * Requests the sandbox counted before this probe (its rate limiter's X-RateLimit-Remaining
 * falls by one a request, within its window); a difference of two probes counts the first
 * probe too.
 */
async function requestsSoFar(): Promise<number> {
  const response = await call(sandbox, { path: '/api/status-page/preview' })
  const limit = Number(response.headers.get('x-ratelimit-limit'))
  const remaining = Number(response.headers.get('x-ratelimit-remaining'))
  return limit - remaining - 1
}

function storedPageLimit(): number | null {
  const db = new Database(path.join(desk.dataDir, 'cache.sqlite'), { readonly: true })
  try {
    const row = db
      .prepare('SELECT page_limit FROM certificate_page_limits WHERE profile_id = ?')
      .get(profile.id) as { page_limit: number } | undefined
    return row?.page_limit ?? null
  } finally {
    db.close()
  }
}

async function rowsOf(filter: Record<string, unknown>) {
  return (await desk.value<List>('certificates.refresh', { profileId: profile.id, filter })).rows
}

function seed() {
  return sandbox.seed() as ReturnType<RunningSandbox['seed']> & {
    pkiCertificates: { id: string; sslCertificateId: string; hasPrivateKey: boolean }[]
  }
}

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(KEYRING_HINT)
  temp = await makeTempDir('gateway-certificates')
  sandbox = await startSandbox({
    port: 0,
    flavor: 'gateway',
    certificateCount: TOTAL,
    rateLimitClock: () => rateLimitNow,
  })
  desk = await openTestDesk('gateway-certificates', { requestTimeoutMs: 30_000 })
  profile = await desk.addProfile(sandbox, { name: 'Gateway', color: '#2563eb' })
}, 120_000)

afterAll(async () => {
  await desk?.close()
  await sandbox?.close()
  await temp?.remove()
})

describe('the list as a real deployment pages it', () => {
  it('learns the page size from the refusal of 500, keeps it, and lists every certificate', async () => {
    const before = await requestsSoFar()
    const rows = await rowsOf({ showSystem: true })
    // The first probe, 500 refused, then 100 a page: three pages for TOTAL.
    expect((await requestsSoFar()) - before).toBe(1 + 1 + Math.ceil(TOTAL / 100))
    expect(rows).toHaveLength(TOTAL)
    expect(new Set(rows.map((row) => row.id)).size).toBe(TOTAL)
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set(sandbox.seed().certificates.all))
    const cached = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    expect(cached.completeness).toBeNull()
    expect(storedPageLimit()).toBe(100)
  })

  it('asks the learned size at once on the next refresh, after a restart too', async () => {
    await desk.reopen()
    const before = await requestsSoFar()
    const rows = await rowsOf({ showSystem: true })
    expect((await requestsSoFar()) - before).toBe(1 + Math.ceil(TOTAL / 100))
    expect(rows).toHaveLength(TOTAL)
  })

  it('waits out 429s met by the pages of the walk instead of giving the list up', async () => {
    await armRateLimit(sandbox, 2, 1)
    const rows = await rowsOf({ showSystem: true })
    expect(rows).toHaveLength(TOTAL)
    const cached = await desk.value<List>('certificates.cached', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    expect(cached.completeness).toBeNull()
    expect(cached.error).toBeNull()
  })

  it('newest first: a certificate added mid-walk shifts the pages; the walk says the list changed, the next one has all', async () => {
    const material = await makeSelfSigned(temp, 'mid-walk.gateway.example')
    let uploaded = false
    const walk = await fetchAllPages(
      { showSystem: true },
      async (query) => {
        const url = new URL('/api/ssl-certificates', sandbox.url)
        for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value))
        const response = await fetch(url, {
          headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
        })
        const answer = (await response.json()) as { data: unknown[] }
        if (!uploaded) {
          uploaded = true
          await uploadDirect('mid-walk', material)
        }
        return answer
      },
      { pageLimit: 100 },
    )
    // The newcomer went to the front of page 1 (already read) and pushed one row onto page 2
    // again: nothing is lost silently, the walk says the list changed.
    expect(walk.completeness).toMatchObject({ reason: 'total-mismatch' })
    expect(walk.entries).toHaveLength(TOTAL)
    const rows = await rowsOf({ showSystem: true })
    expect(rows).toHaveLength(TOTAL + 1)
    expect(rows.some((row) => row.name === 'mid-walk')).toBe(true)
  })
})

describe("the count read from the sandbox's rate limiter", () => {
  it('keeps every request while its clock stands still, and lets them go once it moves a window on', async () => {
    // The profile's token check at least (every walk above too, when they ran).
    const before = await requestsSoFar()
    expect(before).toBeGreaterThan(0)
    expect(await requestsSoFar()).toBe(before + 1)
    rateLimitNow += 60_001
    // Every earlier request has left the window: only this probe is counted now.
    expect(await requestsSoFar()).toBe(0)
    expect(await requestsSoFar()).toBe(1)
  })
})

describe('exports as a real deployment allows them', () => {
  const itemOf = async (id: string) =>
    (
      await desk.value<ChannelOutput<'certificates.details'>>('certificates.details', {
        profileId: profile.id,
        id,
        readPem: false,
      })
    ).item as Record<string, unknown>

  async function fileOf(saved: Saved) {
    const bytes = await readFile(saved.path)
    expect(saved).toMatchObject({ size: bytes.length, sha256: sha256Hex(bytes) })
    return bytes
  }

  /** The seed's first internal (PKI) certificate that holds its private key. */
  const internalWithKey = () => seed().pkiCertificates.find((candidate) => candidate.hasPrivateKey)!

  /** Exports `internalWithKey()` through the bridge as `format`. */
  function exportInternal(format: string, extra: Record<string, unknown> = {}) {
    return desk.value<Saved>('certificates.export', {
      profileId: profile.id,
      id: internalWithKey().sslCertificateId,
      format,
      ...extra,
    })
  }

  it('an internal certificate as pkcs12, through its internalCertId', async () => {
    const pki = internalWithKey()
    const item = await itemOf(pki.sslCertificateId)
    expect(item['internalCertId']).toBe(pki.id)
    const saved = await exportInternal('pkcs12', { passphrase: PASSPHRASE })
    // Named as the answer's Content-Disposition names it (certificate-export-name.test.ts).
    expect(path.basename(saved.path)).toMatch(/^[\w.-]+\.p12$/)
    await fileOf(saved)
    const contents = await openssl([
      'pkcs12',
      '-in',
      saved.path,
      '-passin',
      `pass:${PASSPHRASE}`,
      '-nodes',
    ])
    const labels = splitPemBlocks(contents).map((block) => block.label)
    expect(labels).toContain('PRIVATE KEY')
    expect(labels).toContain('CERTIFICATE')
  })

  it('an internal certificate as jks (a PKCS#12 keystore under that name), which keytool lists', async () => {
    const saved = await exportInternal('jks', { passphrase: PASSPHRASE })
    expect(await keytoolList(saved.path, PASSPHRASE)).toMatch(/PrivateKeyEntry/)
  })

  it('a pem-bundle ZIP is saved as .zip, a real ZIP that lists the PEM files', async () => {
    const saved = await exportInternal('pem-bundle')
    expect(path.basename(saved.path)).toMatch(/^[\w.-]+\.zip$/)
    const bytes = await fileOf(saved)
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304')
    const tested = await run('unzip', ['-t', saved.path])
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    const names = (await run('unzip', ['-Z1', saved.path])).stdout.trim().split('\n')
    expect(names.filter((name) => /\.(pem|key)$/.test(name)).length).toBeGreaterThanOrEqual(3)
  })

  it("an acme certificate's full chain, DER and PEM are written from the listed PEM and verify", async () => {
    const rows = await rowsOf({ type: 'acme' })
    const acme = rows[0]!
    const item = await itemOf(acme.id)
    const transfersBefore = (await readdir(desk.downloads)).length
    const fullchain = await desk.value<Saved>('certificates.export', {
      profileId: profile.id,
      id: acme.id,
      format: 'fullchain',
    })
    expect(path.basename(fullchain.path)).toBe(`${acme.name}-fullchain.pem`)
    const blocks = splitPemBlocks((await fileOf(fullchain)).toString('utf8'))
    expect(blocks.length).toBeGreaterThanOrEqual(2)
    const leaf = await temp.write('acme-leaf.pem', blocks[0]!.pem)
    const listedLeaf = await temp.write('acme-listed.pem', String(item['certificatePem']))
    const root = await temp.write('acme-root.pem', blocks.at(-1)!.pem)
    const verified = await run('openssl', [
      'verify',
      '-CAfile',
      root,
      '-untrusted',
      fullchain.path,
      leaf,
    ])
    expect(verified.stdout).toMatch(/: OK/)
    const fingerprint = (file: string, inform = 'PEM') =>
      openssl(['x509', '-in', file, '-inform', inform, '-noout', '-fingerprint', '-sha256'])
    expect(await fingerprint(leaf)).toBe(await fingerprint(listedLeaf))

    const der = await desk.value<Saved>('certificates.export', {
      profileId: profile.id,
      id: acme.id,
      format: 'der',
    })
    await fileOf(der)
    expect(await fingerprint(der.path, 'DER')).toBe(await fingerprint(listedLeaf))
    expect((await readdir(desk.downloads)).length).toBe(transfersBefore + 2)
  })

  it('details read facts from the listed PEM (acme) and from the PKI certificate (internal)', async () => {
    // Details open from the list: the certificates are cached.
    const acme = (await rowsOf({ showSystem: true })).find((row) => row.type === 'acme')!
    const pki = seed().pkiCertificates[0]!
    for (const id of [acme.id, pki.sslCertificateId]) {
      const details = await desk.value<ChannelOutput<'certificates.details'>>(
        'certificates.details',
        { profileId: profile.id, id, readPem: true },
      )
      expect(details.factsError, id).toBeNull()
      const listedFile = await temp.write(
        `facts-${id}.pem`,
        String(details.item?.['certificatePem']),
      )
      const listed = await openssl(['x509', '-in', listedFile, '-noout', '-fingerprint', '-sha256'])
      expect(listed.replace(/\s+$/, '').split('=')[1]).toBe(details.facts?.fingerprintSha256)
    }
  })

  it("an acme or upload certificate's key formats are refused with the reason, and nothing is written", async () => {
    const acme = (await rowsOf({ type: 'acme' }))[0]!
    const upload = (await rowsOf({ type: 'upload' }))[0]!
    const before = await readdir(desk.downloads)
    for (const [row, what] of [
      [acme, 'an ACME certificate'],
      [upload, 'an uploaded certificate'],
    ] as const) {
      for (const format of ['private-key', 'pkcs12', 'jks', 'pem-bundle'] as const) {
        const refused = await desk.failure('certificates.export', {
          profileId: profile.id,
          id: row.id,
          format,
          ...(format === 'jks' || format === 'pkcs12' ? { passphrase: PASSPHRASE } : {}),
        })
        expect(refused.code, format).toBe('UNPROCESSABLE_ENTITY')
        expect(refused.message).toContain(`does not export the private key of ${what}`)
        expect(refused.details).toEqual([{ path: ['format'], message: refused.message }])
      }
    }
    expect(await readdir(desk.downloads)).toEqual(before)
  })
})

async function uploadDirect(
  name: string,
  material: { certificatePem: string; privateKeyPem: string },
) {
  const response = await call(sandbox, {
    method: 'POST',
    path: '/api/ssl-certificates/upload',
    body: { name, ...material },
  })
  expect(response.status).toBe(201)
}

describe('moves as a real deployment answers them', () => {
  it('op 10 answered {success: true}: moved, and the next refresh shows it', async () => {
    const [row] = await rowsOf({ type: 'acme' })
    const folderId = sandbox.seed().certificateFolders.find((id) => id !== row!.folderId)!
    const moved = await desk.value<{ moved: number }>('certificates.move', {
      profileId: profile.id,
      ids: [row!.id],
      folderId,
    })
    expect(moved).toEqual({ moved: 1 })
    const after = await rowsOf({ type: 'acme' })
    expect(after.find((candidate) => candidate.id === row!.id)?.folderId).toBe(folderId)
  })
})

describe('the profile removed', () => {
  it('forgets the page size learned for it', async () => {
    expect(storedPageLimit()).toBe(100)
    await desk.value('profiles.remove', { id: profile.id })
    expect(storedPageLimit()).toBeNull()
  })
})
