/*
 * The floor of the export bench: the app's work on a download without the app's design. One
 * thread reads the body into one buffer, writes each read at its place, hashes it (SHA-256,
 * which the app must check), starts the disk's write-back every 32 MiB as AtomicFile does (an
 * fdatasync on libuv's pool, so the last fsync has little left), then fsyncs: what any design
 * that verifies the file has to do, with no hand-off between threads. It splits the app's gap
 * to curl -o (which syncs nothing) into what the hash and durability cost here (this floor's gap) and
 * what the app's design adds (its distance to this floor): bench/README.md, `export`, stop 30.
 *
 * Plain HTTP/1.1 GET over loopback with a Content-Length body (what the sandbox sends); not
 * the app's transport, and not for anything but this bench.
 */
import { createHash } from 'node:crypto'
import { closeSync, fdatasync, fsyncSync, openSync, writeSync } from 'node:fs'
import net from 'node:net'
import { performance } from 'node:perf_hooks'
import { FLUSH_EVERY_BYTES } from '../src/main/transfers/atomic-file'

const READ_BYTES = 256 * 1024
const HEAD_END = Buffer.from('\r\n\r\n')

export interface OneThreadDownload {
  ms: number
  size: number
  sha256: string
}

/** Downloads `url` (http) to `file` on this thread; rejects on any status but 200. */
export function oneThreadDownload(url: string, file: string): Promise<OneThreadDownload> {
  const target = new URL(url)
  if (target.protocol !== 'http:') throw new Error('the floor download speaks http only')
  const fd = openSync(file, 'w', 0o600)
  const hash = createHash('sha256')
  const start = performance.now()
  let head: Buffer | null = Buffer.alloc(0)
  let expected = -1
  let written = 0
  let flushedAt = 0
  /** The write-back under way (settles when done; its failure is met by the last fsync). */
  let flushing: Promise<void> | null = null
  return new Promise<OneThreadDownload>((resolve, reject) => {
    const fail = (error: Error) => {
      socket.destroy()
      closeSync(fd)
      reject(error)
    }
    const body = (bytes: Uint8Array) => {
      let done = 0
      while (done < bytes.length) {
        done += writeSync(fd, bytes, done, bytes.length - done, written + done)
      }
      hash.update(bytes)
      written += bytes.length
      if (written - flushedAt >= FLUSH_EVERY_BYTES && flushing === null) {
        flushedAt = written
        flushing = new Promise<void>((settled) => fdatasync(fd, () => settled())).then(() => {
          flushing = null
        })
      }
    }
    const socket = net.connect({
      host: target.hostname,
      port: Number(target.port || 80),
      onread: {
        buffer: Buffer.allocUnsafe(READ_BYTES),
        callback: (size: number, buffer: Uint8Array) => {
          const bytes = buffer.subarray(0, size)
          if (head === null) {
            body(bytes)
            return true
          }
          // The head, gathered until its blank line; what follows it is the body's start.
          head = Buffer.concat([head, bytes])
          const end = head.indexOf(HEAD_END)
          if (end < 0) return true
          const text = head.subarray(0, end).toString('latin1')
          const rest = head.subarray(end + HEAD_END.length)
          head = null
          const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1]
          if (status !== '200' || length === undefined) {
            fail(new Error(`the floor download needs a 200 with a Content-Length: ${text}`))
            return false
          }
          expected = Number(length)
          body(rest)
          return true
        },
      },
    })
    socket.on('connect', () => {
      socket.write(
        `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`,
      )
    })
    socket.on('error', fail)
    socket.on('end', () => {
      if (written !== expected) {
        fail(new Error(`the floor download got ${written} of ${expected} bytes`))
        return
      }
      void (async () => {
        await flushing
        fsyncSync(fd)
        closeSync(fd)
        resolve({ ms: performance.now() - start, size: written, sha256: hash.digest('hex') })
      })()
    })
  })
}
