import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  callOperation,
  PERSONALITIES,
  sandboxForThisFile,
} from '../../support/sandbox-process'
import { expectError, expectSuccess, expectValidationError } from '../../support/answers'
import type { SandboxProcess, SeedIds } from '../../support/sandbox-process'
import { makeTempDir, sha256Hex, tarList } from '../../support/tools'
import type { TempDir } from '../../support/tools'

/*
 * Op 15: a volume export is a signed link on the sandbox. The archive behind it is fetched
 * without the bearer token, read by tar, hashed, and cut with Range requests. The large
 * volume (>= 1 GiB) is never downloaded whole: only its length and its last bytes.
 */

const GIB = 1024 ** 3
/** The large volume's archive is generated as a stream; its first hash may take a while. */
const LARGE_TIMEOUT_MS = 300_000

type SeedVolume = SeedIds['volumes'][number]

const sandbox = sandboxForThisFile({ resetBeforeEach: false })
let temp: TempDir
let small: SeedVolume
let large: SeedVolume

beforeAll(async () => {
  temp = await makeTempDir('infradesk-volumes')
  const bySize = [...sandbox.seed.volumes].sort((a, b) => a.sizeBytes - b.sizeBytes)
  small = bySize[0] as SeedVolume
  large = bySize.at(-1) as SeedVolume
})
afterAll(async () => {
  await temp?.remove()
})

async function exportVolume(volume: SeedVolume, token?: string, on: SandboxProcess = sandbox) {
  const response = await callOperation(on, 'exportVolume', {
    params: { nodeId: volume.nodeId, name: volume.name },
    token,
  })
  return expectSuccess('exportVolume', response).data
}

/** Fetches a download link the way a download manager would: no Authorization header. */
function download(url: string, init: { method?: string; range?: string } = {}) {
  return fetch(url, {
    method: init.method ?? 'GET',
    headers: init.range ? { range: init.range } : {},
  })
}

describe('the seeded volumes', () => {
  it('sit on two nodes, small ones and one of at least 1 GiB', () => {
    expect(
      new Set(sandbox.seed.volumes.map((volume) => volume.nodeId)).size,
    ).toBeGreaterThanOrEqual(2)
    expect(small.sizeBytes).toBeGreaterThan(0)
    expect(small.sizeBytes).toBeLessThan(64 * 1024 * 1024)
    expect(large.sizeBytes).toBeGreaterThanOrEqual(GIB)
  })
})

describe('op 15: GET /api/docker/nodes/{nodeId}/volumes/{name}/export', () => {
  it('answers { id, name, nodeId, format, sizeBytes, sha256, downloadUrl, expiresAt }', async () => {
    const data = await exportVolume(small)
    expect(data.name).toBe(small.name)
    expect(data.nodeId).toBe(small.nodeId)
    expect(data.id).toEqual(expect.any(String))
    expect(data.format).toMatch(/tar\.gz|tgz/)
    expect(data.sizeBytes).toBe(small.sizeBytes)
    expect(data.sha256).toMatch(/^[0-9a-f]{64}$/)
    const link = new URL(data.downloadUrl ?? '')
    expect(link.origin).toBe(new URL(sandbox.url).origin)
    const expiresAt = Date.parse(data.expiresAt ?? '')
    expect(expiresAt).toBeGreaterThan(Date.now())
  })

  it('the viewer may export too', async () => {
    const data = await exportVolume(small, sandbox.tokens.viewer)
    expect(data.sizeBytes).toBe(small.sizeBytes)
  })

  it('404 for an unknown node or an unknown volume', async () => {
    const otherNode = sandbox.seed.volumes.find((volume) => volume.nodeId !== small.nodeId)
    for (const params of [
      { nodeId: 'no-such-node', name: small.name },
      { nodeId: small.nodeId, name: 'no-such-volume' },
      // A volume exists only on its own node.
      ...(otherNode &&
      !sandbox.seed.volumes.some((v) => v.nodeId === otherNode.nodeId && v.name === small.name)
        ? [{ nodeId: otherNode.nodeId, name: small.name }]
        : []),
    ]) {
      expectError(await callOperation(sandbox, 'exportVolume', { params }), 'NOT_FOUND')
    }
  })

  it('400 naming the empty path parameter', async () => {
    expectValidationError(
      await call(sandbox, {
        path: `/api/docker/nodes/${encodeURIComponent(small.nodeId)}/volumes//export`,
      }),
      ['name'],
    )
    expectValidationError(
      await call(sandbox, {
        path: `/api/docker/nodes//volumes/${encodeURIComponent(small.name)}/export`,
      }),
      ['nodeId'],
    )
  })
})

/*
 * The shape of op 15's answer beyond the envelope is not shown: the default links to the
 * archive (`downloadUrl`), the variant sends small archives inline as base64 `content` (and
 * still links to the 1 GiB one). A client reads whichever came; the bytes must match the
 * answer's `sizeBytes` and `sha256` and be a tar.gz.
 */
describe.each(PERSONALITIES)(
  'op 15: the archive as a client reads it ($personality)',
  ({ variant, args }) => {
    // The default personality shares the file's sandbox; the variant gets its own process.
    const on = variant ? sandboxForThisFile({ resetBeforeEach: false, args }) : sandbox
    /** The same volume in this personality's seed (ids are random per process). */
    const here = (volume: SeedVolume) =>
      on.seed.volumes.find((candidate) => candidate.name === volume.name) as SeedVolume

    it('a small volume: the bytes match sizeBytes and sha256, and tar lists them', async () => {
      const data = await exportVolume(here(small), undefined, on)
      const content = (data as Record<string, unknown>)['content']
      let bytes: Buffer
      if (variant) {
        expect(data.downloadUrl).toBeUndefined()
        expect(content).toEqual(expect.any(String))
        bytes = Buffer.from(String(content), 'base64')
        expect(bytes.toString('base64')).toBe(content)
      } else {
        expect(content).toBeUndefined()
        const response = await download(data.downloadUrl ?? '')
        expect(response.status).toBe(200)
        bytes = Buffer.from(await response.arrayBuffer())
      }
      expect(bytes.length).toBe(data.sizeBytes)
      expect(sha256Hex(bytes)).toBe(data.sha256)
      const file = await temp.write(
        `${variant ? 'variant' : 'default'}-${small.name}.tar.gz`,
        bytes,
      )
      expect((await tarList(file)).length).toBeGreaterThan(0)
    })

    it(
      'the large volume is never inline: a link, its size and hash',
      async () => {
        const data = await exportVolume(here(large), undefined, on)
        expect((data as Record<string, unknown>)['content']).toBeUndefined()
        expect(new URL(data.downloadUrl ?? '').origin).toBe(new URL(on.url).origin)
        expect(data.sizeBytes).toBe(large.sizeBytes)
      },
      LARGE_TIMEOUT_MS,
    )
  },
)

describe('the downloadUrl of a small volume', () => {
  let url: string
  let sha256: string
  let whole: Buffer

  beforeAll(async () => {
    const data = await exportVolume(small)
    url = data.downloadUrl ?? ''
    sha256 = data.sha256 ?? ''
    const response = await download(url)
    expect(response.status).toBe(200)
    whole = Buffer.from(await response.arrayBuffer())
  })

  it('streams the archive without a bearer token: sizeBytes long, hashing to sha256', () => {
    expect(whole.length).toBe(small.sizeBytes)
    expect(sha256Hex(whole)).toBe(sha256)
    expect(whole.subarray(0, 2).toString('hex')).toBe('1f8b') // gzip magic
  })

  it('is a .tar.gz that tar -tzf lists', async () => {
    const file = await temp.write(`${small.name}.tar.gz`, whole)
    const entries = await tarList(file)
    expect(entries.length).toBeGreaterThan(0)
  })

  it('answers HEAD with Content-Length and no body', async () => {
    const response = await download(url, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(Number(response.headers.get('content-length'))).toBe(small.sizeBytes)
    expect(response.headers.get('accept-ranges')).toBe('bytes')
    expect((await response.arrayBuffer()).byteLength).toBe(0)
  })

  it('answers a Range request with 206 and exactly the requested bytes', async () => {
    const start = Math.floor(whole.length / 3)
    const end = Math.min(whole.length - 1, start + 4_095)
    const response = await download(url, { range: `bytes=${start}-${end}` })
    expect(response.status).toBe(206)
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${whole.length}`)
    const part = Buffer.from(await response.arrayBuffer())
    expect(Number(response.headers.get('content-length'))).toBe(part.length)
    expect(part.equals(whole.subarray(start, end + 1))).toBe(true)
  })

  it('answers open-ended and suffix ranges, as a resumed download sends them', async () => {
    const from = whole.length - 100
    const open = await download(url, { range: `bytes=${from}-` })
    expect(open.status).toBe(206)
    expect(Buffer.from(await open.arrayBuffer()).equals(whole.subarray(from))).toBe(true)
    const suffix = await download(url, { range: 'bytes=-10' })
    expect(suffix.status).toBe(206)
    expect(Buffer.from(await suffix.arrayBuffer()).equals(whole.subarray(-10))).toBe(true)
  })

  it('refuses a range past the end with 416', async () => {
    const response = await download(url, { range: `bytes=${whole.length}-` })
    expect(response.status).toBe(416)
    expect(response.headers.get('content-range')).toBe(`bytes */${whole.length}`)
  })

  it('refuses a link whose signature was tampered with, or that names another volume', async () => {
    const tampered = new URL(url)
    const signature = tampered.searchParams.get('signature') ?? ''
    tampered.searchParams.set(
      'signature',
      `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
    )
    const refused = [
      tampered.toString(),
      url.split('?')[0] as string,
      url.replace(encodeURIComponent(small.name), encodeURIComponent(large.name)),
    ]
    const later = new URL(url)
    later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 60_000))
    refused.push(later.toString())
    for (const link of refused) {
      const response = await download(link)
      expect(response.status, link).toBeGreaterThanOrEqual(400)
      expect(response.status, link).toBeLessThan(500)
      await response.arrayBuffer()
    }
  })
})

describe('the downloadUrl of the large volume', () => {
  let url: string

  beforeAll(async () => {
    const data = await exportVolume(large)
    expect(data.sizeBytes).toBe(large.sizeBytes)
    expect(data.sizeBytes).toBeGreaterThanOrEqual(GIB)
    url = data.downloadUrl ?? ''
  }, LARGE_TIMEOUT_MS)

  it('HEAD reports the full length', { timeout: LARGE_TIMEOUT_MS }, async () => {
    const response = await download(url, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(Number(response.headers.get('content-length'))).toBe(large.sizeBytes)
  })

  it(
    'serves its first and last bytes by Range without sending the rest',
    { timeout: LARGE_TIMEOUT_MS },
    async () => {
      const head = await download(url, { range: 'bytes=0-1' })
      expect(head.status).toBe(206)
      expect(Buffer.from(await head.arrayBuffer()).toString('hex')).toBe('1f8b')

      const start = large.sizeBytes - 1_024
      const tail = await download(url, { range: `bytes=${start}-${large.sizeBytes - 1}` })
      expect(tail.status).toBe(206)
      expect(tail.headers.get('content-range')).toBe(
        `bytes ${start}-${large.sizeBytes - 1}/${large.sizeBytes}`,
      )
      const bytes = Buffer.from(await tail.arrayBuffer())
      expect(bytes.length).toBe(1_024)
      // The same range twice gives the same bytes: the archive is deterministic.
      const again = await download(url, { range: `bytes=${start}-${large.sizeBytes - 1}` })
      expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true)
    },
  )
})
