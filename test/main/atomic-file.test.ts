import { chmod, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ServiceError } from '../../src/main/api'
import { AtomicFile, writeFileAtomic } from '../../src/main/transfers'
import { IS_ROOT, mountTmpfs, NOT_ROOT_REASON } from '../support/tiny-fs'
import { useTempFolder } from '../support/temp-folder'
import { sha256Hex } from '../support/tools'
import { serviceErrorOf } from '../support/service-error'

/*
 * The atomic writer's failure paths on real file systems: a folder that refuses writes, a disk
 * that fills up (a 1 MiB tmpfs), a cancel, a verify hook that refuses the bytes. Each must end
 * with a clear error code and leave nothing in the folder: no target, no temp file.
 */

const temp = useTempFolder('infradesk-atomic')

/*
 * Cases that mount a tmpfs need root; as another user they are skipped (reported as skipped,
 * with the reason in their name), never passed. Root ignores a folder's permission bits, so the
 * permission case is skipped as root instead.
 */
const asRoot = it.skipIf(!IS_ROOT)
const NEEDS_ROOT = IS_ROOT ? '' : ` (skipped: ${NOT_ROOT_REASON})`
const notAsRoot = it.skipIf(IS_ROOT)
const NEEDS_NON_ROOT = IS_ROOT ? ' (skipped: root may write to any folder)' : ''

const freshFolder = () => temp.freshFolder()

function chunks(total: number, size = 64 * 1024): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let done = 0; done < total; done += size)
    out.push(Buffer.alloc(Math.min(size, total - done), 7))
  return out
}

describe('the atomic writer', () => {
  it('writes, fsyncs and renames: the file appears whole, with its SHA-256', async () => {
    const folder = await freshFolder()
    const bytes = Buffer.from('whole or nothing\n')
    const written = await writeFileAtomic(folder, 'out.txt', bytes, { collision: 'fail' })
    expect(written).toEqual({
      path: path.join(folder, 'out.txt'),
      size: bytes.length,
      sha256: sha256Hex(bytes),
    })
    expect(await readFile(written.path)).toEqual(bytes)
    expect(await readdir(folder)).toEqual(['out.txt'])
  })

  it('starts over from byte zero after restart(), leaving no hole', async () => {
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'restart.bin')
    await file.write(Buffer.alloc(5000, 1))
    await file.restart()
    await file.write(Buffer.from('fresh'))
    const written = await file.commit({ collision: 'fail' })
    expect(await readFile(written.path, 'utf8')).toBe('fresh')
    expect(written.sha256).toBe(sha256Hex(Buffer.from('fresh')))
  })

  it('numbers a taken name and never overwrites it silently', async () => {
    const folder = await freshFolder()
    await writeFile(path.join(folder, 'a.tar.gz'), 'old')
    const written = await writeFileAtomic(folder, 'a.tar.gz', Buffer.from('new'), {
      collision: 'number',
    })
    expect(path.basename(written.path)).toBe('a (2).tar.gz')
    expect(await readFile(path.join(folder, 'a.tar.gz'), 'utf8')).toBe('old')
    const refused = await serviceErrorOf(
      writeFileAtomic(folder, 'a.tar.gz', Buffer.from('x'), { collision: 'fail' }),
    )
    expect(refused.code).toBe('FILE_EXISTS')
    expect((await readdir(folder)).sort()).toEqual(['a (2).tar.gz', 'a.tar.gz'])
  })
})

describe('failure paths leave no file', () => {
  it('a folder that does not exist: NOT_WRITABLE, naming the folder', async () => {
    const folder = path.join(temp.dir, 'no-such-folder')
    const error = await serviceErrorOf(
      writeFileAtomic(folder, 'x.bin', Buffer.from('x'), { collision: 'fail' }),
    )
    expect(error.code).toBe('NOT_WRITABLE')
    expect(error.message).toContain(folder)
    expect(error.details).toEqual([{ path: ['folder'], message: 'No such folder' }])
  })

  asRoot('an unwritable folder (read-only file system): NOT_WRITABLE' + NEEDS_ROOT, async () => {
    const mounted = await mountTmpfs(temp.dir, 'read-only', {
      sizeBytes: 1024 * 1024,
      readOnly: true,
    })
    try {
      const error = await serviceErrorOf(
        writeFileAtomic(mounted.dir, 'x.bin', Buffer.from('x'), { collision: 'fail' }),
      )
      expect(error.code).toBe('NOT_WRITABLE')
      expect(error.message).toMatch(/may not write to .*read-only file system/)
      expect(await readdir(mounted.dir)).toEqual([])
    } finally {
      await mounted.unmount()
    }
  })

  notAsRoot(
    'an unwritable folder (no write permission): NOT_WRITABLE' + NEEDS_NON_ROOT,
    async () => {
      const folder = await freshFolder()
      await chmod(folder, 0o500)
      try {
        const error = await serviceErrorOf(
          writeFileAtomic(folder, 'x.bin', Buffer.from('x'), { collision: 'fail' }),
        )
        expect(error.code).toBe('NOT_WRITABLE')
        expect(await readdir(folder)).toEqual([])
      } finally {
        await chmod(folder, 0o700)
      }
    },
  )

  asRoot(
    'a full disk (1 MiB tmpfs): DISK_FULL, and the temp file is removed' + NEEDS_ROOT,
    async () => {
      const mounted = await mountTmpfs(temp.dir, 'tiny', { sizeBytes: 1024 * 1024 })
      try {
        let progressed = 0
        const error = await serviceErrorOf(
          writeFileAtomic(mounted.dir, 'big.bin', chunks(3 * 1024 * 1024), {
            collision: 'fail',
            onProgress: (written) => {
              progressed = written
            },
          }),
        )
        expect(error.code).toBe('DISK_FULL')
        expect(error.message).toContain('is full')
        expect(progressed).toBeGreaterThan(0)
        expect(await readdir(mounted.dir)).toEqual([])
        // The space is free again: a small file fits afterwards.
        await writeFileAtomic(mounted.dir, 'small.bin', Buffer.alloc(1000), { collision: 'fail' })
        expect(await readdir(mounted.dir)).toEqual(['small.bin'])
      } finally {
        await mounted.unmount()
      }
    },
  )

  asRoot(
    'after a failed write the file refuses more writes and the commit, and abort removes it' +
      NEEDS_ROOT,
    async () => {
      const mounted = await mountTmpfs(temp.dir, 'tiny-after', { sizeBytes: 1024 * 1024 })
      try {
        const file = await AtomicFile.create(mounted.dir, 'big.bin')
        const failed = await serviceErrorOf(file.write(Buffer.alloc(2 * 1024 * 1024)))
        expect(failed.code).toBe('DISK_FULL')
        // The hash already counted the chunk the file could not hold: it must not be trusted.
        expect((await serviceErrorOf(file.write(Buffer.from('more')))).code).toBe('DISK_FULL')
        expect((await serviceErrorOf(file.commit({ collision: 'fail' }))).code).toBe('DISK_FULL')
        await file.abort()
        expect(await readdir(mounted.dir)).toEqual([])
      } finally {
        await mounted.unmount()
      }
    },
  )

  it('a cancel midway: CANCELLED, nothing left', async () => {
    const folder = await freshFolder()
    const controller = new AbortController()
    const error = await serviceErrorOf(
      writeFileAtomic(folder, 'cancelled.bin', chunks(1024 * 1024), {
        collision: 'fail',
        signal: controller.signal,
        onProgress: (written) => {
          if (written >= 256 * 1024) controller.abort()
        },
      }),
    )
    expect(error.code).toBe('CANCELLED')
    expect(await readdir(folder)).toEqual([])
  })

  it('a verify hook that refuses the bytes: its error, nothing left', async () => {
    const folder = await freshFolder()
    const error = await serviceErrorOf(
      writeFileAtomic(folder, 'refused.bin', Buffer.from('not what was announced'), {
        collision: 'replace',
        verify: ({ sha256 }) => {
          if (sha256 !== '0'.repeat(64)) {
            throw new ServiceError('INTEGRITY_ERROR', 'The SHA-256 differs: the file was deleted')
          }
        },
      }),
    )
    expect(error.code).toBe('INTEGRITY_ERROR')
    expect(await readdir(folder)).toEqual([])
  })

  it('abort() waits for a write it raced with before the descriptor closes', async () => {
    // The writer thread writes through the descriptor's number: closed under a write still
    // queued, that number could be another file's by then. abort() must wait for it.
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'raced.bin')
    let writeSettled = false
    const writing = file.write(Buffer.alloc(16 * 1024 * 1024, 7)).then(
      () => 'written',
      (error: unknown) => `failed: ${String(error)}`,
    )
    void writing.finally(() => {
      writeSettled = true
    })
    await file.abort()
    expect(writeSettled).toBe(true)
    // The write finished on an open descriptor (no EBADF), and nothing is left behind.
    expect(await writing).toBe('written')
    expect(await readdir(folder)).toEqual([])
  })

  it('abort() after writes removes the temp file and may be called twice', async () => {
    const folder = await freshFolder()
    const file = await AtomicFile.create(folder, 'aborted.bin')
    await file.write(Buffer.alloc(1000))
    expect(await readdir(folder)).toHaveLength(1)
    await file.abort()
    await file.abort()
    expect(await readdir(folder)).toEqual([])
  })
})
