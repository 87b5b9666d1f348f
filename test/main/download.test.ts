import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { IncomingHttpHeaders, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, requestRaw, ServiceError } from '../../src/main/api'
import { createNetworkStack } from '../../src/main/net'
import type { ServiceClient } from '../../src/main/api'
import { AtomicFile } from '../../src/main/transfers'
import { downloadToFile, parseContentRange } from '../../src/main/transfers/download'
import type { JobProgress, JobReporter } from '../../src/main/transfers/jobs'
import { writeVolumeArchive } from '../../src/main/transfers/volume-archive'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox, SeedIds } from '../../src/sandbox'
import type { VolumeExport } from '../../src/shared/api'
import { IS_ROOT, mountTmpfs } from '../support/tiny-fs'
import { call } from '../support/sandbox-process'
import { makeTempDir, sha256Hex, tarList } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The download engine and op 15's archive writer against a real sandbox (in this process),
 * using its test-only cut control to drop connections midway, and against small local servers
 * for what the sandbox never does: ignore Range, change the file between two requests, or
 * live on another origin (where the token must not go).
 */

let sandbox: RunningSandbox
let seed: SeedIds
let temp: TempDir
let client: ServiceClient

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  seed = sandbox.seed()
  temp = await makeTempDir('infradesk-download')
  // The sandbox hashes an archive on its first op 15: slow on a loaded machine.
  client = createServiceClient({
    baseUrl: sandbox.url,
    token: sandbox.tokens.admin,
    timeoutMs: 120_000,
  })
})

afterAll(async () => {
  await sandbox?.close()
  await temp?.remove()
})

let folderCount = 0
/** An empty folder of its own for each case, so "no file left" is checked exactly. */
async function freshFolder(): Promise<string> {
  folderCount += 1
  const folder = path.join(temp.dir, `out-${folderCount}`)
  await mkdir(folder)
  return folder
}

function volume(name: string) {
  const found = seed.volumes.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no seeded volume ${name}`)
  return found
}

async function exportOf(name: string): Promise<VolumeExport> {
  const { nodeId } = volume(name)
  return (await client.call('exportVolume', { params: { nodeId, name } })).data
}

/** `POST /__sandbox/downloads/cut`: the next `count` downloads stop after `afterBytes`. */
async function cutNextDownloads(afterBytes: number | null, count = 1) {
  const response = await call(sandbox, {
    method: 'POST',
    path: '/__sandbox/downloads/cut',
    body: { afterBytes, count },
  })
  expect(response.status).toBe(200)
}

async function downloadStats(): Promise<{
  served: { full: number; partial: number; cut: number }
}> {
  return (await call(sandbox, { path: '/__sandbox/downloads' })).json as {
    served: { full: number; partial: number; cut: number }
  }
}

function recorder(): JobReporter & { seen: JobProgress[]; verified: boolean } {
  const seen: JobProgress[] = []
  const reporter = {
    seen,
    verified: false,
    progress: (progress: JobProgress) => {
      seen.push(progress)
    },
    verifying: () => {
      reporter.verified = true
    },
  }
  return reporter
}

/** Op 15's archive writer into `file`, as a job runs it (a renewed URL is never needed here). */
function writeArchive(
  exported: VolumeExport,
  file: AtomicFile,
  options: { signal?: AbortSignal; reporter?: JobReporter } = {},
) {
  return writeVolumeArchive({
    exported,
    client,
    file,
    collision: 'number',
    signal: options.signal ?? new AbortController().signal,
    reporter: options.reporter ?? recorder(),
    renewUrl: () => Promise.reject(new Error('not needed')),
  })
}

async function sha256OfFile(file: string): Promise<string> {
  return sha256Hex(await readFile(file))
}

async function expectRejects(work: Promise<unknown>, code: string): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error, `expected ${code}`).toBeInstanceOf(ServiceError)
  expect((error as ServiceError).code).toBe(code)
  return error as ServiceError
}

describe('volume archives from the sandbox', () => {
  it('streams an archive to disk whose SHA-256 and size are the announced ones', async () => {
    const exported = await exportOf('backups-nightly')
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'backups-nightly.tar.gz')
    const reporter = recorder()
    const written = await writeArchive(exported, file, { reporter })
    expect(written.path).toBe(path.join(folder, 'backups-nightly.tar.gz'))
    expect(written.size).toBe(exported.sizeBytes)
    expect(written.sha256).toBe(exported.sha256)
    expect(await sha256OfFile(written.path)).toBe(exported.sha256)
    expect((await tarList(written.path)).length).toBeGreaterThan(0)
    expect(reporter.verified).toBe(true)
    expect(reporter.seen.at(-1)?.bytesDone).toBe(exported.sizeBytes)
    expect(await readdir(folder)).toEqual(['backups-nightly.tar.gz'])
  })

  it('resumes a cut download with Range and If-Range, and ends with the right hash', async () => {
    const exported = await exportOf('ci-cache')
    const before = await downloadStats()
    await cutNextDownloads(1024 * 1024 + 17, 2)
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'ci-cache.tar.gz')
    const reporter = recorder()
    const written = await writeArchive(exported, file, { reporter })
    expect(await sha256OfFile(written.path)).toBe(exported.sha256)
    const last = reporter.seen.at(-1)
    expect(last?.resumes).toBe(2)
    expect(last?.restarts).toBe(0)
    const after = await downloadStats()
    // Two cut answers (the first full, the second already a range), then one partial answer.
    expect(after.served.cut - before.served.cut).toBe(2)
    expect(after.served.partial - before.served.partial).toBe(1)
    expect(after.served.full - before.served.full).toBe(0)
  })

  it('deletes the file and says so when the SHA-256 is not the announced one', async () => {
    const exported = { ...(await exportOf('grafana-data')), sha256: '0'.repeat(64) }
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'grafana-data.tar.gz')
    const error = await expectRejects(writeArchive(exported, file), 'INTEGRITY_ERROR')
    expect(error.message).toMatch(/SHA-256.*the file was deleted/)
    expect(await readdir(folder)).toEqual([])
  })

  it('deletes the file when the size is not the announced one', async () => {
    const real = await exportOf('grafana-data')
    const exported = { ...real, sizeBytes: (real.sizeBytes ?? 0) + 1 }
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'grafana-data.tar.gz')
    // The answer is shorter than announced: the engine asks for the missing byte (416), then
    // the size check refuses the file.
    const error = await expectRejects(writeArchive(exported, file), 'INTEGRITY_ERROR')
    expect(error.message).toMatch(/bytes, but the service announced/)
    expect(await readdir(folder)).toEqual([])
  })

  it('cancels midway and leaves no file', async () => {
    const exported = await exportOf('backups-nightly')
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'backups-nightly.tar.gz')
    const controller = new AbortController()
    const reporter = recorder()
    // After the first MiB of 8 is on disk: midway, whatever the machine's speed.
    reporter.progress = (progress) => {
      if (progress.bytesDone >= 1024 * 1024) controller.abort()
    }
    await expectRejects(
      writeArchive(exported, file, { signal: controller.signal, reporter }),
      'CANCELLED',
    )
    expect(await readdir(folder)).toEqual([])
  })

  it.runIf(IS_ROOT)(
    'stops on a full disk with DISK_FULL, without retrying, and leaves no file',
    async () => {
      const exported = await exportOf('backups-nightly')
      const before = await downloadStats()
      const mounted = await mountTmpfs(temp.dir, 'tiny-disk', { sizeBytes: 1024 * 1024 })
      try {
        const file = await AtomicFile.create(mounted.dir, 'backups-nightly.tar.gz')
        const error = await expectRejects(writeArchive(exported, file), 'DISK_FULL')
        expect(error.message).toContain(mounted.dir)
        expect(await readdir(mounted.dir)).toEqual([])
        const after = await downloadStats()
        expect(after.served.full - before.served.full).toBe(1)
        expect(after.served.partial - before.served.partial).toBe(0)
      } finally {
        await mounted.unmount()
      }
    },
  )

  it('refuses an unwritable folder before anything is downloaded', async () => {
    const error = await expectRejects(
      AtomicFile.create(path.join(temp.dir, 'missing', 'deeper'), 'x.tar.gz'),
      'NOT_WRITABLE',
    )
    expect(error.message).toMatch(/does not exist/)
  })

  it('writes inline base64 content when the service sends the bytes themselves', async () => {
    const bytes = Buffer.from('an archive sent inline\n'.repeat(1000))
    const exported: VolumeExport = {
      name: 'inline',
      sizeBytes: bytes.length,
      sha256: sha256Hex(bytes),
      content: bytes.toString('base64'),
    }
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'inline.tar.gz')
    const written = await writeArchive(exported, file)
    expect(await readFile(written.path)).toEqual(bytes)
  })
})

/* ------------------------------------------- servers the sandbox does not stand for */

/** The engine downloading `server`'s file into a fresh folder, retrying fast. */
async function downloadFrom(
  server: TestServer,
  onProgress?: (progress: { bytesDone: number }) => void,
) {
  const file = await AtomicFile.create(await freshFolder(), 'archive.tar.gz')
  const result = await downloadToFile({
    url: server.url,
    fetch: (url, request) => requestRaw(new URL(url), request),
    file,
    signal: new AbortController().signal,
    retryDelayMs: 10,
    ...(onProgress === undefined ? {} : { onProgress }),
  })
  return { file, result }
}

interface TestServer {
  url: string
  requests: IncomingHttpHeaders[]
  close(): Promise<void>
}

/**
 * A small file server: `versions[n]` is what it holds after n completed requests; answers cut
 * after `cutAfter` bytes while `cuts` lasts; honours Range only when `honourRange`, and If-Range
 * against the current version's ETag.
 */
async function fileServer(options: {
  versions: Buffer[]
  cutAfter: number
  cuts: number
  honourRange: boolean
  host?: string
}): Promise<TestServer> {
  const requests: IncomingHttpHeaders[] = []
  let cuts = options.cuts
  const server: Server = createServer((request, response) => {
    const version = Math.min(requests.length, options.versions.length - 1)
    requests.push(request.headers)
    const body = options.versions[version] as Buffer
    const etag = `"v${version}-${sha256Hex(body).slice(0, 16)}"`
    const rangeMatch = /^bytes=(\d+)-$/.exec(request.headers.range ?? '')
    const ifRange = request.headers['if-range']
    const useRange =
      options.honourRange && rangeMatch !== null && (ifRange === undefined || ifRange === etag)
    const start = useRange ? Number(rangeMatch?.[1]) : 0
    const part = body.subarray(start)
    response.writeHead(useRange ? 206 : 200, {
      'content-length': String(part.length),
      etag,
      ...(useRange ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    })
    if (cuts > 0 && part.length > options.cutAfter) {
      cuts -= 1
      response.write(part.subarray(0, options.cutAfter), () => response.socket?.end())
      return
    }
    response.end(part)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/archive.tar.gz`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function pseudoRandom(length: number, seedText: string): Buffer {
  const out = Buffer.alloc(length)
  let block = createHash('sha256').update(seedText).digest()
  for (let offset = 0; offset < length; offset += block.length) {
    block.copy(out, offset)
    block = createHash('sha256').update(block).digest()
  }
  return out
}

describe('servers that do not resume', () => {
  it('restarts from zero when a range request is answered 200, never appending', async () => {
    const body = pseudoRandom(3 * 1024 * 1024, 'no-range')
    const server = await fileServer({
      versions: [body],
      cutAfter: 1024 * 1024,
      cuts: 1,
      honourRange: false,
    })
    try {
      const seen: number[] = []
      const { file, result } = await downloadFrom(server, (progress) =>
        seen.push(progress.bytesDone),
      )
      expect(result).toMatchObject({ restarts: 1, resumes: 0, bytesTotal: body.length })
      expect(server.requests[1]?.range).toBe('bytes=1048576-')
      const committed = await file.commit({ collision: 'fail' })
      expect(committed.size).toBe(body.length)
      expect(await readFile(committed.path)).toEqual(body)
    } finally {
      await server.close()
    }
  })

  it('takes the whole new file when If-Range says it changed since the cut', async () => {
    const first = pseudoRandom(2 * 1024 * 1024, 'version one')
    const second = pseudoRandom(2 * 1024 * 1024 + 5, 'version two')
    const server = await fileServer({
      versions: [first, second],
      cutAfter: 700_000,
      cuts: 1,
      honourRange: true,
    })
    try {
      const { file, result } = await downloadFrom(server)
      expect(server.requests[1]?.['if-range']).toMatch(/^"v0-/)
      expect(result.restarts).toBe(1)
      const committed = await file.commit({ collision: 'fail' })
      expect(await readFile(committed.path)).toEqual(second)
    } finally {
      await server.close()
    }
  })

  it('resumes against the same version with a 206 that continues the file', async () => {
    const body = pseudoRandom(2 * 1024 * 1024, 'same version')
    const server = await fileServer({
      versions: [body],
      cutAfter: 500_000,
      cuts: 3,
      honourRange: true,
    })
    try {
      const { file, result } = await downloadFrom(server)
      expect(result).toMatchObject({ resumes: 3, restarts: 0 })
      const committed = await file.commit({ collision: 'fail' })
      expect(committed.sha256).toBe(sha256Hex(body))
    } finally {
      await server.close()
    }
  })
})

describe('a proxy that refuses', () => {
  it('is not asked again: a 407 fails the download at once, naming the proxy', async () => {
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'behind-the-proxy.tar.gz')
    let attempts = 0
    const refusal = new ServiceError(
      'OFFLINE',
      'The proxy at http://127.0.0.1:3128 refused: 407 Proxy Authentication Required',
      { details: { reason: 'PROXY_REFUSED', proxy: 'http://127.0.0.1:3128', proxyStatus: 407 } },
    )
    try {
      await expect(
        downloadToFile({
          url: 'http://127.0.0.1:9/archive',
          fetch: async () => {
            attempts += 1
            throw refusal
          },
          file,
          signal: new AbortController().signal,
          retryDelayMs: 1,
        }),
      ).rejects.toBe(refusal)
      expect(attempts).toBe(1)
    } finally {
      await file.abort()
    }
  })
})

describe('where the token goes', () => {
  it('sends the bearer token to the profile origin only, never to a download host', async () => {
    const body = pseudoRandom(100_000, 'token')
    // "localhost" and "127.0.0.1" are different origins: the profile's is 127.0.0.1.
    const elsewhere = await fileServer({
      versions: [body],
      cutAfter: 0,
      cuts: 0,
      honourRange: true,
      host: 'localhost',
    })
    const ownOrigin = await fileServer({
      versions: [body],
      cutAfter: 0,
      cuts: 0,
      honourRange: true,
    })
    const token = 'a-profile-token-that-must-stay-home'
    const profileClient = createServiceClient({
      baseUrl: new URL(ownOrigin.url).origin,
      token,
    })
    try {
      for (const server of [elsewhere, ownOrigin]) {
        const folder = await freshFolder()
        await writeVolumeArchive({
          exported: { downloadUrl: server.url, sizeBytes: body.length, sha256: sha256Hex(body) },
          client: profileClient,
          file: await AtomicFile.create(folder, 'archive.tar.gz'),
          collision: 'fail',
          signal: new AbortController().signal,
          reporter: recorder(),
          renewUrl: () => Promise.reject(new Error('not needed')),
        })
      }
      expect(elsewhere.requests).toHaveLength(1)
      expect(elsewhere.requests[0]?.authorization).toBeUndefined()
      expect(ownOrigin.requests[0]?.authorization).toBe(`Bearer ${token}`)
    } finally {
      await elsewhere.close()
      await ownOrigin.close()
    }
  })
})

describe("the sandbox's cut control", () => {
  it('is admin-only, validates its body, and clears with null', async () => {
    const post = (body: unknown, token = sandbox.tokens.admin) =>
      fetch(`${sandbox.url}/__sandbox/downloads/cut`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await post({ afterBytes: 10 }, sandbox.tokens.viewer)).status).toBe(403)
    const invalid = await post({ afterBytes: -1 })
    expect(invalid.status).toBe(400)
    const error = (await invalid.json()) as { details: { path: string[] }[] }
    expect(error.details[0]?.path).toEqual(['afterBytes'])
    await cutNextDownloads(1000, 3)
    expect(await fetchStatus()).toMatchObject({ pendingCuts: 3, afterBytes: 1000 })
    await cutNextDownloads(null)
    expect(await fetchStatus()).toMatchObject({ pendingCuts: 0, afterBytes: null })
  })
})

async function fetchStatus(): Promise<unknown> {
  return (await call(sandbox, { path: '/__sandbox/downloads' })).json
}

describe('Content-Range', () => {
  it('reads ranges and the size of a 416', () => {
    expect(parseContentRange('bytes 0-99/1000')).toEqual({ start: 0, end: 99, size: 1000 })
    expect(parseContentRange('bytes 5-9/*')).toEqual({ start: 5, end: 9, size: null })
    expect(parseContentRange('bytes */1000')).toEqual({ start: null, size: 1000 })
    expect(parseContentRange('items 0-1/2')).toBeNull()
    expect(parseContentRange(null)).toBeNull()
  })
})

describe('the download worker asks main', () => {
  /*
   * Volume archives download on a worker thread (transfers/worker-download.ts); a fresh signed
   * link is main's to get (op 15 again). A server whose first link is cut midway and then
   * refused (403, an expired signature) must see the rest asked on the link main gave.
   */
  it('for a fresh link when the old one is refused on the resume, and ends with the right hash', async () => {
    const body = pseudoRandom(3 * 1024 * 1024 + 17, 'renewed link')
    const requests: { path: string; range: string | undefined }[] = []
    const server: Server = createServer((request, response) => {
      const path = request.url ?? ''
      requests.push({ path, range: request.headers.range })
      const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '')
      if (path === '/old' && range !== null) {
        response.writeHead(403).end('{"error":{"code":"FORBIDDEN","message":"link expired"}}')
        return
      }
      const start = range === null ? 0 : Number(range[1])
      response.writeHead(range === null ? 200 : 206, {
        'content-length': String(body.length - start),
        ...(range === null
          ? {}
          : { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` }),
      })
      if (path === '/old') {
        response.write(body.subarray(0, 1024 * 1024), () => response.socket?.end())
        return
      }
      response.end(body.subarray(start))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      let renewed = 0
      const file = await AtomicFile.create(await freshFolder(), 'renewed.tar.gz')
      const written = await writeVolumeArchive({
        exported: {
          nodeId: 'node',
          name: 'renewed',
          downloadUrl: `${origin}/old`,
          sizeBytes: body.length,
          sha256: sha256Hex(body),
        },
        client: createServiceClient({ baseUrl: origin, token: 'renew-token' }),
        file,
        collision: 'fail',
        signal: new AbortController().signal,
        reporter: recorder(),
        renewUrl: async () => {
          renewed += 1
          return `${origin}/fresh`
        },
        timing: { retryDelayMs: 10 },
      })
      expect(written.sha256).toBe(sha256Hex(body))
      expect(await readFile(written.path)).toEqual(body)
      expect(renewed).toBe(1)
      // The resume went on from where the cut left it, on the fresh link.
      expect(requests.map((item) => `${item.path} ${item.range ?? ''}`)).toEqual([
        '/old ',
        `/old bytes=${1024 * 1024}-`,
        `/fresh bytes=${1024 * 1024}-`,
      ])
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
  })
})

describe('a proxy setting that cannot be used', () => {
  it('fails the download with BAD_URL naming it, as a call would, and leaves no file', async () => {
    // The route is main's to decide (the worker asks); its refusal must read the same there.
    const socks = createServiceClient({
      baseUrl: sandbox.url,
      token: sandbox.tokens.admin,
      network: createNetworkStack({ env: {} }).forProfile({
        proxy: { mode: 'custom', url: 'socks5://127.0.0.1:1080' },
        proxyCredentials: null,
        trustedCas: [],
      }),
    })
    const exported = await exportOf('backups-nightly')
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'socks.tar.gz')
    const error = await expectRejects(
      writeVolumeArchive({
        exported,
        client: socks,
        file,
        collision: 'fail',
        signal: new AbortController().signal,
        reporter: recorder(),
        renewUrl: () => Promise.reject(new Error('not needed')),
        timing: { retryDelayMs: 10 },
      }),
      'BAD_URL',
    )
    expect(error.message).toMatch(/socks/i)
    expect(await readdir(folder)).toEqual([])
  })
})
