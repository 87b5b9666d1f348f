/*
 * The floor of the export bench: the app's work on a download without the app's design. One
 * thread reads the body into one buffer, writes each read at its place, hashes it (SHA-256,
 * which the app must check), starts the disk's write-back every FLUSH_EVERY_BYTES as AtomicFile
 * does (write-back.ts: an fdatasync on libuv's pool, so the last fsync has little left), then
 * fsyncs: what any design
 * that verifies the file has to do, with no hand-off between threads. It splits the app's gap
 * to curl -o (which syncs nothing) into what the hash and durability cost here (this floor's gap) and
 * what the app's design adds (its distance to this floor): bench/results/HISTORY.md, `export`.
 *
 * A plain HTTP/1.1 GET over loopback, its answer read by the app's own parser
 * (`Http1ResponseParser`, which the app's transport feeds the same way); not the app's
 * transport, and not for anything but this bench.
 */
import { createHash } from 'node:crypto'
import { closeSync, fdatasync, fsyncSync, openSync, writeSync } from 'node:fs'
import net from 'node:net'
import { performance } from 'node:perf_hooks'
import { Http1ResponseParser } from '../src/main/api/http1-response'
import { WriteBack } from '../src/main/transfers/write-back'

const READ_BYTES = 256 * 1024

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
  const parser = new Http1ResponseParser()
  let written = 0
  /** The write-back (its failure is met by the last fsync). */
  const writeBack = new WriteBack(
    () =>
      new Promise<void>((resolve, reject) =>
        fdatasync(fd, (error) => (error ? reject(error) : resolve())),
      ),
  )
  return new Promise<OneThreadDownload>((resolve, reject) => {
    const fail = (error: unknown) => {
      socket.destroy()
      closeSync(fd)
      reject(error instanceof Error ? error : new Error(String(error)))
    }
    /** The body's bytes, as the parser hands them on: written, hashed, flushed now and then. */
    const sink = {
      write(bytes: Uint8Array) {
        let done = 0
        while (done < bytes.length) {
          done += writeSync(fd, bytes, done, bytes.length - done, written + done)
        }
        hash.update(bytes)
        written += bytes.length
        writeBack.wrote(written)
      },
    }
    /** One read through the parser: it stops once after the head, which must say 200. */
    const consume = (bytes: Uint8Array): boolean => {
      let offset = 0
      while (offset < bytes.length && !parser.complete) {
        const hadHead = parser.response !== null
        offset += parser.feed(bytes.subarray(offset), sink)
        const status = parser.response?.status
        if (!hadHead && status !== undefined && status !== 200) {
          fail(new Error(`the floor download was answered ${status}`))
          return false
        }
      }
      return true
    }
    const socket = net.connect({
      host: target.hostname,
      port: Number(target.port || 80),
      onread: {
        buffer: Buffer.allocUnsafe(READ_BYTES),
        callback: (size: number, buffer: Uint8Array) => {
          try {
            return consume(buffer.subarray(0, size))
          } catch (error) {
            fail(error)
            return false
          }
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
      try {
        // An answer cut short (fewer bytes than its Content-Length) throws here.
        parser.finish()
      } catch (error) {
        fail(error)
        return
      }
      void (async () => {
        await writeBack.settled()
        fsyncSync(fd)
        closeSync(fd)
        resolve({ ms: performance.now() - start, size: written, sha256: hash.digest('hex') })
      })().catch(reject)
    })
  })
}
