import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { crc32, inflateRawSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createVolumeArchive, VOLUME_ARCHIVE_ENTRIES } from '../../src/sandbox/volumes'
import { crc32Combine, crc32ForcingBytes } from '../../src/sandbox/volumes/crc32'
import type { VolumeArchive, VolumeSpec } from '../../src/sandbox/volumes'

const MiB = 1024 * 1024
const GiB = 1024 * MiB
/** Stored-block geometry of the gzip container: 10-byte header, blocks of 5 + 65535 bytes. */
const BLOCK_SPAN = 65540

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function readRange(archive: VolumeArchive, start: number, end: number): Promise<Buffer> {
  return collect(archive.createReadStream({ start, end }))
}

describe('crc32 arithmetic', () => {
  it('combines two CRCs into the CRC of the concatenation', () => {
    for (const [a, b] of [
      [0, 0],
      [1, 7],
      [1000, 65535],
      [4096, 1],
    ] as const) {
      const left = randomBytes(a)
      const right = randomBytes(b)
      expect(crc32Combine(crc32(left), crc32(right), right.length)).toBe(
        crc32(Buffer.concat([left, right])),
      )
    }
  })

  it('finds the four bytes that force a chosen CRC', () => {
    const prefix = randomBytes(777)
    for (const target of [0, 0xffffffff, 0x12345678, 0xdeadbeef]) {
      const forced = Buffer.concat([prefix, crc32ForcingBytes(crc32(prefix), target)])
      expect(crc32(forced)).toBe(target)
    }
  })
})

describe('a small volume archive', () => {
  // A data size that ends inside a 1 MiB content chunk and inside a stored block.
  const spec: VolumeSpec = {
    nodeId: 'node-a',
    name: 'app-data',
    dataBytes: 3 * MiB + 1234,
    seed: 'seed-one',
  }
  let dir: string
  let file: string
  let bytes: Buffer
  let archive: VolumeArchive

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'infradesk-volume-'))
    file = join(dir, 'volume.tar.gz')
    archive = createVolumeArchive(spec)
    await pipeline(archive.createReadStream(), createWriteStream(file))
    bytes = await readFile(file)
  })

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('is exactly sizeBytes long', async () => {
    expect((await stat(file)).size).toBe(archive.sizeBytes)
  })

  it('passes gzip -t and lists and extracts with GNU tar', () => {
    execFileSync('gzip', ['-t', file])
    const listed = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n')
    expect(listed).toEqual([...VOLUME_ARCHIVE_ENTRIES])

    const out = join(dir, 'out')
    execFileSync('mkdir', [out])
    execFileSync('tar', ['-xzf', file, '-C', out])
    const data = execFileSync('stat', ['-c', '%s', join(out, 'data/content.bin')], {
      encoding: 'utf8',
    })
    expect(Number(data.trim())).toBe(spec.dataBytes)
    const manifest = JSON.parse(
      execFileSync('cat', [join(out, 'volume.json')], { encoding: 'utf8' }),
    )
    expect(manifest).toMatchObject({
      nodeId: 'node-a',
      name: 'app-data',
      dataBytes: spec.dataBytes,
    })
  })

  it('carries pseudo-random content, not zeros', () => {
    // The data file is the last entry: its bytes, its padding to 512, two zero blocks.
    const content = inflateRawSync(bytes.subarray(10, -8))
    const padding = (512 - (spec.dataBytes % 512)) % 512
    const dataEnd = content.length - 1024 - padding
    const data = content.subarray(dataEnd - spec.dataBytes, dataEnd)
    const firstMiB = data.subarray(0, MiB)
    const distinct = new Set(firstMiB)
    expect(distinct.size).toBe(256)
    expect(firstMiB.equals(data.subarray(MiB, 2 * MiB))).toBe(false)
  })

  it('hashes to sha256(), and remembers it', async () => {
    const expected = createHash('sha256').update(bytes).digest('hex')
    expect(await archive.sha256()).toBe(expected)
    expect(await archive.sha256()).toBe(expected)
    expect(await createVolumeArchive(spec).sha256()).toBe(expected)
  })

  it('serves byte ranges equal to slices of the whole', async () => {
    const size = archive.sizeBytes
    const ranges: [number, number][] = [
      [0, 0],
      [0, 9], // the gzip header
      [0, 600], // header, first block header, first tar header
      [5, 20],
      [BLOCK_SPAN + 8, BLOCK_SPAN + 12], // inside a stored-block header
      [BLOCK_SPAN * 3 - 100, BLOCK_SPAN * 5 + 100], // spanning several blocks
      [MiB - 3000, MiB + 3000], // spanning a 1 MiB content chunk (and its forced CRC bytes)
      [2 * MiB + 7, 2 * MiB + 7],
      [size - 100, size - 1], // the end of the tar, the last block and the trailer
      [size - 8, size - 1], // the trailer alone
      [size - 1, size - 1],
    ]
    for (const [start, end] of ranges) {
      const range = await readRange(archive, start, end)
      expect(range.length, `${start}-${end}`).toBe(end - start + 1)
      expect(range.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true)
    }
  })

  it('refuses ranges outside the archive', () => {
    expect(() => archive.createReadStream({ start: 0, end: archive.sizeBytes })).toThrow(RangeError)
    expect(() => archive.createReadStream({ start: 10, end: 9 })).toThrow(RangeError)
    expect(() => archive.createReadStream({ start: -1, end: 9 })).toThrow(RangeError)
  })

  it('gives the same bytes for the same seed and other bytes for another seed', async () => {
    const again = await collect(createVolumeArchive({ ...spec }).createReadStream())
    expect(again.equals(bytes)).toBe(true)
    const other = await collect(
      createVolumeArchive({ ...spec, seed: 'seed-two' }).createReadStream(),
    )
    expect(other.length).toBe(bytes.length)
    expect(other.equals(bytes)).toBe(false)
  })

  it('respects backpressure: a paused reader does not make the stream produce everything', async () => {
    const stream = archive.createReadStream()
    await new Promise((resolve) => stream.once('readable', resolve))
    // Nothing consumed yet: the buffer holds about one high-water mark, not 3 MiB.
    expect(stream.readableLength).toBeLessThanOrEqual(stream.readableHighWaterMark + BLOCK_SPAN)
    stream.destroy()
  })
})

describe('edge sizes', () => {
  it.each([0, 1, 3, 4, 5, 65535, 65536, MiB, MiB + 3])(
    'a volume with %i data bytes is a valid archive',
    async (dataBytes) => {
      const dir = await mkdtemp(join(tmpdir(), 'infradesk-volume-'))
      try {
        const file = join(dir, 'v.tar.gz')
        const archive = createVolumeArchive({ nodeId: 'n', name: 'v', dataBytes, seed: 'edge' })
        await pipeline(archive.createReadStream(), createWriteStream(file))
        expect((await stat(file)).size).toBe(archive.sizeBytes)
        execFileSync('gzip', ['-t', file])
        const listing = execFileSync('tar', ['-tvzf', file], { encoding: 'utf8' })
        expect(listing).toMatch(new RegExp(`\\s${dataBytes}\\s.*data/content\\.bin`))
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  )
})

describe('a 1 GiB volume archive', () => {
  const archive = createVolumeArchive({
    nodeId: 'node-b',
    name: 'big-data',
    dataBytes: GiB,
    seed: 'large',
  })

  it('knows its size without generating anything', () => {
    expect(archive.sizeBytes).toBeGreaterThan(GiB)
  })

  it('serves its last bytes, and they close a valid deflate stream', async () => {
    const size = archive.sizeBytes
    // Stored blocks are self-contained, so the tail from the last block's start inflates alone.
    const lastBlockStart = 10 + Math.floor((size - 8 - 10 - 1) / BLOCK_SPAN) * BLOCK_SPAN
    const started = performance.now()
    const tail = await readRange(archive, lastBlockStart, size - 1)
    const lastBytes = await readRange(archive, size - 64, size - 1)
    console.log(
      `1 GiB archive: tail ${tail.length} bytes served in ${(performance.now() - started).toFixed(1)} ms`,
    )
    expect(tail.length).toBe(size - lastBlockStart)
    expect(lastBytes.equals(tail.subarray(tail.length - 64))).toBe(true)

    const content = inflateRawSync(tail.subarray(0, -8))
    // The tar ends with two zero blocks, after the data file's last bytes.
    expect(content.subarray(-1024).every((byte) => byte === 0)).toBe(true)
    const trailer = tail.subarray(-8)
    const tarLength = size - 18 - 5 * Math.ceil((size - 18) / BLOCK_SPAN)
    expect(trailer.readUInt32LE(4)).toBe(tarLength % 2 ** 32)
    expect(tarLength % 512).toBe(0)
  })

  it('serves a range in its middle', async () => {
    const middle = Math.floor(archive.sizeBytes / 2)
    const range = await readRange(archive, middle, middle + 200_000)
    expect(range.length).toBe(200_001)
    const again = await readRange(archive, middle + 100_000, middle + 100_099)
    expect(again.equals(range.subarray(100_000, 100_100))).toBe(true)
  })
})
