import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, requestRaw } from '../../src/main/api'
import type { BodySink } from '../../src/main/api'
import { findErrorCode } from '../../src/main/api/network'
import { IDLE_TIMEOUT_CODE } from '../../src/main/api/raw-http'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The download transport against real servers on loopback: node:http answering with a length,
 * chunked and close-delimited bodies, servers that break, go silent or speak TLS with a
 * certificate nobody trusts. The sink here writes asynchronously, so the socket pauses for every
 * write, as it does for a disk.
 */

const servers: (ReturnType<typeof createServer> | ReturnType<typeof createTlsServer>)[] = []
let temp: TempDir
beforeAll(async () => {
  temp = await makeTempDir('infradesk-raw-http')
})

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    ),
  )
})
afterAll(() => temp.remove())

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<URL> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/file`)
}

/**
 * Collects the body; every write is asynchronous, so the socket pauses for each, as for a disk.
 * Two writes may be under way at once (the reader fills one buffer while the other is written),
 * so each write keeps the place it was given, as a positional file write does: pushing on
 * completion put a quick write before a slow earlier one, about one run in a few.
 */
function slowSink(): BodySink & { body(): Buffer } {
  const parts: Buffer[] = []
  let writes = 0
  return {
    async write(bytes) {
      const place = writes++
      // Some writes take a while, so the next read lands while this one is still in use.
      await new Promise((resolve) =>
        place % 7 === 3 ? setTimeout(resolve, 3) : setImmediate(resolve),
      )
      // Read only now: the bytes must still be there after the wait (the socket was paused).
      parts[place] = Buffer.from(bytes)
    },
    body: () => Buffer.concat(parts),
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

describe('requestRaw', () => {
  const payload = randomBytes(3 * 1024 * 1024 + 17)

  it('reads a body with a length whole, through a sink that keeps pausing the socket', async () => {
    const url = await serve((request, response) => {
      response.writeHead(200, { 'content-length': payload.length, etag: '"v1"' })
      response.end(payload)
    })
    const answer = await requestRaw(url, { headers: { 'x-test': 'yes' } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('etag')).toBe('"v1"')
    const sink = slowSink()
    await answer.readBody(sink)
    expect(sha256(sink.body())).toBe(sha256(payload))
  })

  it('reads a chunked body, and a body that ends with the connection', async () => {
    const chunkedUrl = await serve((request, response) => {
      response.writeHead(200)
      for (let offset = 0; offset < payload.length; offset += 100_000) {
        response.write(payload.subarray(offset, offset + 100_000))
      }
      response.end()
    })
    const chunked = await requestRaw(chunkedUrl, { headers: {} })
    expect(chunked.headers.get('transfer-encoding')).toBe('chunked')
    const sink = slowSink()
    await chunked.readBody(sink)
    expect(sha256(sink.body())).toBe(sha256(payload))

    const closeUrl = await serve((request, response) => {
      response.socket?.end(
        Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), payload.subarray(0, 50_000)]),
      )
    })
    const closing = await requestRaw(closeUrl, { headers: {} })
    const closingSink = slowSink()
    await closing.readBody(closingSink)
    expect(closingSink.body().equals(payload.subarray(0, 50_000))).toBe(true)
  })

  it('sends the Range header it is given, and the server answers the part', async () => {
    const url = await serve((request, response) => {
      expect(request.headers['connection']).toBe('close')
      expect(request.headers['range']).toBe('bytes=10-19')
      response.writeHead(206, { 'content-range': `bytes 10-19/${payload.length}` })
      response.end(payload.subarray(10, 20))
    })
    const part = await requestRaw(url, { headers: { range: 'bytes=10-19' } })
    expect(part.status).toBe(206)
    expect((await part.bytes(1024)).equals(payload.subarray(10, 20))).toBe(true)
  })

  it('says the connection closed early when it breaks mid-body, after what arrived', async () => {
    const url = await serve((request, response) => {
      response.writeHead(200, { 'content-length': payload.length })
      response.write(payload.subarray(0, 200_000), () => response.destroy())
    })
    const answer = await requestRaw(url, { headers: {} })
    const sink = slowSink()
    const failure = await answer.readBody(sink).catch((error: unknown) => error)
    expect(['ERR_HTTP_INCOMPLETE', 'ECONNRESET']).toContain(findErrorCode(failure))
    expect(sink.body().equals(payload.subarray(0, sink.body().length))).toBe(true)
  })

  it('gives up on a server that goes silent, with its own code', async () => {
    const url = await serve((request, response) => {
      response.writeHead(200, { 'content-length': payload.length })
      response.write(payload.subarray(0, 1000))
    })
    const answer = await requestRaw(url, { headers: {}, idleTimeoutMs: 200 })
    const failure = await answer.readBody(slowSink()).catch((error: unknown) => error)
    expect(findErrorCode(failure)).toBe(IDLE_TIMEOUT_CODE)
  })

  it('stops at once when the signal aborts, before or during the body', async () => {
    const url = await serve((request, response) => {
      response.writeHead(200, { 'content-length': payload.length })
      response.write(payload.subarray(0, 1000))
    })
    const controller = new AbortController()
    const answer = await requestRaw(url, { headers: {}, signal: controller.signal })
    const reading = answer.readBody(slowSink())
    controller.abort(new Error('stop'))
    await expect(reading).rejects.toThrow('stop')
    await expect(requestRaw(url, { headers: {}, signal: controller.signal })).rejects.toThrow(
      'stop',
    )
  })

  it('refuses a header that would end the request early', async () => {
    const url = await serve((request, response) => response.end())
    await expect(
      requestRaw(url, { headers: { 'x-evil': 'a\r\nHost: evil.test' } }),
    ).rejects.toThrow(/Invalid request header/)
  })

  it('speaks TLS, and a certificate nobody trusts is a TLS error naming the origin', async () => {
    const key = join(temp.dir, 'key.pem')
    const cert = join(temp.dir, 'cert.pem')
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1',
    ], { stdio: 'ignore' }) // prettier-ignore
    const server = createTlsServer(
      { key: readFileSync(key), cert: readFileSync(cert) },
      (request, response) => response.end('secret'),
    )
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
    const client = createServiceClient({ baseUrl, token: 'raw-http-test-token' })
    await expect(client.fetchRaw('/file', { authenticated: true })).rejects.toMatchObject({
      code: 'TLS_ERROR',
      message: expect.stringContaining(`https://127.0.0.1:`),
    })
  })
})
