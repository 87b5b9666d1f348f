import { createHash } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { z } from 'zod'
import { runThisThreadInTheBackground } from '../workers/background-priority'
import { liveHost, ThreadHost } from '../workers/thread-host'

/*
 * The thread that writes and hashes the bytes of the files AtomicFile writes, so main's event
 * loop only hands them over. Measured on the 1 GiB volume export (bench/README.md, `stalls` and
 * `export`): with each chunk written through libuv's thread pool and hashed on main, main spent
 * ~0.7 s of SHA-256 per GiB on its loop plus a thread-pool submission per chunk, and on a loaded
 * machine its loop stalled for up to 339 ms. Here main copies each chunk into the file's
 * shared staging buffer and posts where it is; this thread runs `writeSync` at the chunk's
 * position and the file's SHA-256 over the same bytes, in the order they were posted.
 *
 * Not the transport's read buffers shared directly: raw-http.ts reading into SharedArrayBuffers
 * corrupted a body under test (test/main/raw-http.test.ts, a sink that pauses the socket, about
 * one run in three), so its buffers stay ordinary memory and the chunk is copied once here.
 *
 * One thread for the process, started on the first write and not keeping the process alive
 * while idle. The thread owns no file descriptor: AtomicFile opens, syncs and closes the file
 * on main, and only writes through the descriptor number here. If the thread dies, every file
 * it was writing fails (its hash is lost with it) and the next file starts a new thread.
 */

/** The thread's program: plain JavaScript, evaluated (no file to find in the build, no loader). */
const THREAD_SOURCE = `
;(${runThisThreadInTheBackground.toString()})(require('node:fs').readlinkSync, require('node:os').setPriority)
const { parentPort } = require('node:worker_threads')
const { writeSync } = require('node:fs')
const { createHash } = require('node:crypto')
/** Per open file, by its id: its SHA-256 and the shared buffers its writes come from. */
const files = new Map()
function fileOf(id) {
  let file = files.get(id)
  if (file === undefined) files.set(id, (file = { hash: createHash('sha256'), buffers: new Map() }))
  return file
}
parentPort.on('message', (message) => {
  const { file: id, seq } = message
  try {
    if (message.type === 'write') {
      const file = fileOf(id)
      if (message.shared !== undefined) file.buffers.set(message.buffer, new Uint8Array(message.shared))
      const source = file.buffers.get(message.buffer)
      const bytes = source.subarray(message.offset, message.offset + message.length)
      let done = 0
      while (done < bytes.length) {
        done += writeSync(message.fd, bytes, done, bytes.length - done, message.position + done)
      }
      file.hash.update(bytes)
      parentPort.postMessage({ type: 'done', file: id, seq })
    } else if (message.type === 'digest') {
      const sha256 = fileOf(id).hash.digest('hex')
      files.delete(id)
      parentPort.postMessage({ type: 'digest', file: id, seq, sha256 })
    } else if (message.type === 'restart') {
      fileOf(id).hash = createHash('sha256')
      parentPort.postMessage({ type: 'done', file: id, seq })
    } else {
      files.delete(id)
      parentPort.postMessage({ type: 'done', file: id, seq })
    }
  } catch (error) {
    const code = error !== null && typeof error === 'object' && typeof error.code === 'string' ? error.code : null
    parentPort.postMessage({ type: 'failed', file: id, seq, code, message: String((error && error.message) || error) })
  }
})
`

const ids = { file: z.number().int().positive(), seq: z.number().int().positive() }
const fromThread = z.discriminatedUnion('type', [
  z.object({ type: z.literal('done'), ...ids }),
  z.object({ type: z.literal('digest'), ...ids, sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.object({ type: z.literal('failed'), ...ids, code: z.string().nullable(), message: z.string() }),
])
type FromThread = z.infer<typeof fromThread>

/** A write the thread failed: carries the system error's code (ENOSPC, EIO...) for the caller. */
export class FileWriteError extends Error {
  override name = 'FileWriteError'
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/** One file's side of the thread: writes at positions, then the SHA-256 of what was written. */
export interface ThreadFile {
  /**
   * Writes all of `bytes` at `position` and adds them to the hash; resolves once both are done
   * (until then `bytes` must not change). Writes are done in the order they were asked for.
   */
  write(bytes: Uint8Array, position: number): Promise<void>
  /** The hash starts over (the file was truncated). */
  restart(): Promise<void>
  /** Lowercase hex SHA-256 of the bytes written since the start or the last restart. */
  digest(): Promise<string>
  /**
   * Forgets the file (aborted); nothing more may be asked. Resolves once the thread is done
   * with every write asked before: only then may the caller close the descriptor, which the
   * thread writes through by number (a number that, once closed, another file may reuse).
   */
  drop(): Promise<void>
}

interface Pending {
  resolve(message: FromThread): void
  reject(error: Error): void
}

class WriterThread extends ThreadHost<FromThread, Pending> {
  private lastSeq = 0

  constructor(onGone: () => void) {
    super(new Worker(THREAD_SOURCE, { eval: true }), 'file writer thread', fromThread, onGone)
  }

  protected receive(message: FromThread): void {
    const waiter = this.settle(message.seq)
    if (waiter === undefined) return
    if (message.type === 'failed') {
      waiter.reject(new FileWriteError(message.message, message.code ?? undefined))
    } else waiter.resolve(message)
  }

  ask(
    message: { type: 'write' | 'digest' | 'restart' | 'drop'; file: number } & Record<
      string,
      unknown
    >,
  ): Promise<FromThread> {
    if (this.failure !== null) return Promise.reject(this.failure)
    this.lastSeq += 1
    const seq = this.lastSeq
    return new Promise((resolve, reject) => {
      this.wait(seq, { resolve, reject })
      this.worker.postMessage({ ...message, seq })
    })
  }
}

let lastFile = 0
const currentThread = liveHost((onGone) => new WriterThread(onGone))

/** The shared buffer a file's writes are staged in, at least this big (one socket read). */
const STAGING_BYTES = 256 * 1024

/** Opens `fd` (already open for writing, owned by the caller) for writes on the thread. */
export function threadFile(fd: number): ThreadFile {
  lastFile += 1
  const file = lastFile
  // The file belongs to the thread it started on: a new thread would not know its hash.
  let owner: WriterThread | null = null
  const ownThread = (): WriterThread => {
    owner ??= currentThread()
    return owner
  }
  /*
   * The file's staging buffer: shared memory the thread already holds (posted with the first
   * write that uses it), into which each chunk is copied, so a write posts only where its bytes
   * are. The copy is one memcpy per chunk (~0.1 s of CPU per GiB); posting the chunk itself
   * would copy its whole underlying buffer, and sharing a new buffer per write would make the
   * thread wrap it anew each time, counting its whole size against the thread's heap.
   */
  let staging: { id: number; buffer: SharedArrayBuffer } | null = null
  let lastBuffer = 0
  /** The write under way: the staging buffer is not reused before it is done. */
  let inFlight: Promise<unknown> = Promise.resolve()
  return {
    async write(bytes, position) {
      if (bytes.length === 0) return
      await inFlight.catch(() => undefined)
      let posted: SharedArrayBuffer | undefined
      if (staging === null || staging.buffer.byteLength < bytes.length) {
        lastBuffer += 1
        staging = {
          id: lastBuffer,
          buffer: new SharedArrayBuffer(Math.max(STAGING_BYTES, bytes.length)),
        }
        posted = staging.buffer
      }
      new Uint8Array(staging.buffer, 0, bytes.length).set(bytes)
      const writing = ownThread().ask({
        type: 'write',
        file,
        fd,
        position,
        buffer: staging.id,
        offset: 0,
        length: bytes.length,
        ...(posted === undefined ? {} : { shared: posted }),
      })
      inFlight = writing
      await writing
    },
    async restart() {
      if (owner !== null) await owner.ask({ type: 'restart', file })
    },
    async digest() {
      // An empty file never needed the thread (an export of nothing starts none).
      if (owner === null) return createHash('sha256').digest('hex')
      const answer = await owner.ask({ type: 'digest', file })
      if (answer.type !== 'digest') throw new Error('the file writer thread sent no digest')
      return answer.sha256
    },
    async drop() {
      // After the write under way is posted (a write asked just before may still be waiting
      // for its turn): the thread answers in order, so this answer comes after it.
      await inFlight.catch(() => undefined)
      // Nothing was ever written: no thread to tell (and none to start).
      if (owner === null) return
      // A dead thread writes nothing more: its failure is the write's, not the drop's.
      await owner.ask({ type: 'drop', file }).catch(() => undefined)
    },
  }
}
