import { readdir, readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { ServiceError } from '../../src/main/api'
import { AtomicFile } from '../../src/main/transfers'
import { verifyArchive } from '../../src/main/transfers/volume-archive'
import { useTempFolder } from '../support/temp-folder'
import { sha256Hex } from '../support/tools'

/*
 * AtomicFile's bytes are written and hashed on the writer thread (transfers/file-writer.ts),
 * from shared memory the transport reads into (raw-http.ts) or from a copy of any other view.
 * Real files, a real thread: what lands on disk and the SHA-256 the commit reports must be
 * exactly the bytes of each write as they were when it was asked, whatever the buffers.
 */

const temp = useTempFolder('infradesk-file-writer')

async function freshFile(name: string): Promise<AtomicFile> {
  return AtomicFile.create(await temp.freshFolder(), name)
}

describe('the writer thread', () => {
  it('writes from two reused shared buffers, as the transport reads: each write as it was', async () => {
    const file = await freshFile('ring.bin')
    const ring = [
      Buffer.from(new SharedArrayBuffer(64 * 1024)),
      Buffer.from(new SharedArrayBuffer(64 * 1024)),
    ]
    const expected: Buffer[] = []
    for (let read = 0; read < 12; read += 1) {
      const buffer = ring[read % 2] as Buffer
      // Each read fills its buffer anew and hands on a part of it, as a socket read does.
      buffer.fill(read + 1)
      buffer.writeUInt32BE(read, 100)
      const view = buffer.subarray(read * 7, 1000 + read * 3000)
      expected.push(Buffer.from(view))
      await file.write(view)
    }
    const whole = Buffer.concat(expected)
    const written = await file.commit({ collision: 'fail' })
    expect(written.size).toBe(whole.length)
    expect(await readFile(written.path)).toEqual(whole)
    expect(written.sha256).toBe(sha256Hex(whole))
  })

  it('writes only the view of a larger, unshared buffer, and the bytes of pooled buffers', async () => {
    const file = await freshFile('views.bin')
    const big = Buffer.alloc(1024 * 1024, 5)
    big.write('middle', 500_000)
    const parts = [Buffer.from('pooled '), big.subarray(499_990, 500_020), Buffer.from(' end')]
    for (const part of parts) await file.write(part)
    const written = await file.commit({ collision: 'fail' })
    expect(await readFile(written.path)).toEqual(Buffer.concat(parts))
    expect(written.sha256).toBe(sha256Hex(Buffer.concat(parts)))
  })

  it('keeps the hashes of files written at the same time apart', async () => {
    const first = await freshFile('first.bin')
    const second = await freshFile('second.bin')
    const a: Buffer[] = []
    const b: Buffer[] = []
    for (let index = 0; index < 8; index += 1) {
      const left = Buffer.alloc(10_000 + index, index)
      const right = Buffer.alloc(20_000 - index, 200 - index)
      a.push(left)
      b.push(right)
      await Promise.all([first.write(left), second.write(right)])
    }
    const [one, two] = await Promise.all([
      first.commit({ collision: 'fail' }),
      second.commit({ collision: 'fail' }),
    ])
    expect(one.sha256).toBe(sha256Hex(Buffer.concat(a)))
    expect(two.sha256).toBe(sha256Hex(Buffer.concat(b)))
  })

  it('gives an empty file the SHA-256 of nothing', async () => {
    const file = await freshFile('empty.bin')
    const written = await file.commit({ collision: 'fail' })
    expect(written).toMatchObject({ size: 0, sha256: sha256Hex(Buffer.alloc(0)) })
  })

  it('still refuses a file whose hash is not the announced one, and leaves nothing', async () => {
    const folder = await temp.freshFolder()
    const file = await AtomicFile.create(folder, 'archive.tar.gz')
    const shared = Buffer.from(new SharedArrayBuffer(4096))
    shared.fill(9)
    await file.write(shared)
    const announced = { sizeBytes: 4096, sha256: sha256Hex(Buffer.alloc(4096, 8)) }
    const error = await file
      .commit({ collision: 'fail', verify: (written) => verifyArchive(written, announced) })
      .then(
        () => null,
        (caught: unknown) => caught,
      )
    expect(error).toBeInstanceOf(ServiceError)
    expect((error as ServiceError).code).toBe('INTEGRITY_ERROR')
    expect((error as ServiceError).message).toContain(sha256Hex(shared))
    expect(await readdir(folder)).toEqual([])
  })
})
