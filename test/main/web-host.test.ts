import { mkdirSync } from 'node:fs'
import { request } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import type { Socket } from 'node:net'
import { networkInterfaces } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProfileStore, PROFILES_FILE_NAME } from '../../src/main/profiles'
import { DEFAULT_LIMITS, startWebHost } from '../../src/main/web/host'
import type { WebHost } from '../../src/main/web/host'
import { openTestDesk, type TestDesk } from '../support/desk'
import { waitUntil } from '../support/poll'

/*
 * Web mode's host over real HTTP on loopback, with a real desk on a temporary data folder. The
 * requests are made with node:http so the test controls exactly what a hostile page or process
 * could send: Host, Origin, the secret header, cookies and raw paths.
 */

const SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuv'
const OUTSIDE_FILE_TEXT = 'this file is outside the renderer folder'

let testDesk: TestDesk
let host: WebHost
let profileId: string

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

function send(options: {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string
  /** Another host's port (the limits tests); the main host's by default. */
  port?: number
}): Promise<Answer> {
  const port = options.port ?? host.port
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        // A fresh connection each time (no pooled keep-alive socket left over).
        agent: false,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

/** The launch secret, as the page sends it on every bridge request. */
const withSecret = { 'x-infradesk-secret': SECRET }

function invoke(channel: string, input: unknown, headers: Record<string, string> = {}) {
  return invokeWithBody(channel, JSON.stringify(input), headers)
}

/** A bridge call as the page makes it, but with `body` sent as given: for bodies it never sends. */
function invokeWithBody(channel: string, body: string, headers: Record<string, string> = {}) {
  return send({
    method: 'POST',
    path: `/__bridge/invoke/${channel}`,
    headers: { ...withSecret, 'content-type': 'application/json', ...headers },
    body,
  })
}

beforeAll(async () => {
  testDesk = await openTestDesk(
    'web-host',
    { openExternal: async () => {}, version: '9.9.9-test' },
    {
      // A profile already on disk, so a bridge call can change something and raise an event
      // without a service to talk to.
      beforeOpen(dataDir) {
        profileId = createProfileStore(path.join(dataDir, PROFILES_FILE_NAME)).add({
          name: 'Staging',
          baseUrl: 'https://staging.example.com',
          color: '#16a34a',
          protected: false,
          kind: 'service',
        }).id
      },
    },
  )
  const { temp } = testDesk
  mkdirSync(path.join(temp.dir, 'renderer', 'assets'), { recursive: true })
  await temp.write(
    'renderer/index.html',
    [
      '<!doctype html><html><head>',
      '<script type="module" crossorigin src="./assets/app.js"></script>',
      '</head><body><div id="root"></div></body></html>',
    ].join(''),
  )
  await temp.write('renderer/assets/app.js', 'console.log("app")\n')
  await temp.write('renderer/assets/style.css', 'body { color: black }\n')
  await temp.write('outside.txt', OUTSIDE_FILE_TEXT)
  host = await startWebHost({
    desk: testDesk.desk,
    rendererDir: path.join(temp.dir, 'renderer'),
    port: 0,
    host: '127.0.0.1',
    secret: SECRET,
  })
})

afterAll(async () => {
  await host?.close()
  await testDesk?.close()
})

describe('web host: who may talk to it', () => {
  it('prints a loopback URL that carries the secret in its fragment, never sent to a server', () => {
    const url = new URL(host.url)
    expect(url.hostname).toBe('127.0.0.1')
    expect(url.hash).toBe(`#secret=${SECRET}`)
    expect(url.search).toBe('')
    expect(`${url.origin}${url.pathname}`).not.toContain(SECRET)
    expect(host.origin).toBe(`http://127.0.0.1:${host.port}`)
  })

  it('is bound to 127.0.0.1 only', async () => {
    const elsewhere = Object.values(networkInterfaces())
      .flat()
      .filter((info) => info !== undefined && !info.internal)
      .map((info) => info!.address)
    for (const address of ['::1', ...elsewhere]) {
      const reached = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: address, port: host.port })
        socket.once('connect', () => {
          socket.destroy()
          resolve(true)
        })
        socket.once('error', () => resolve(false))
      })
      expect(reached, `reachable on ${address}`).toBe(false)
    }
  })

  it('answers 401 to a bridge call or the event stream without the secret', async () => {
    const call = await send({
      method: 'POST',
      path: '/__bridge/invoke/profiles.list',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(call.status).toBe(401)
    expect(call.body).toContain('open the address that `npm run web` printed')
    expect(call.body).not.toContain('Staging')
    expect((await send({ path: '/__bridge/events' })).status).toBe(401)
    expect((await send({ path: '/__bridge/nothing-here' })).status).toBe(401)
  })

  it('serves the renderer files without the secret: they are the same built files everywhere', async () => {
    const page = await send({ path: '/' })
    expect(page.status).toBe(200)
    expect(page.body).not.toContain(SECRET)
    expect((await send({ path: '/assets/app.js' })).status).toBe(200)
  })

  it('answers 401 to a wrong secret in the header, and takes none from a cookie or the URL', async () => {
    const wrong = `${SECRET.slice(0, -1)}X`
    const call = (headers: Record<string, string>, path = '/__bridge/invoke/profiles.list') =>
      send({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      })
    expect((await call({ 'x-infradesk-secret': wrong })).status).toBe(401)
    expect((await call({ 'x-infradesk-secret': '' })).status).toBe(401)
    // The old ways in: a cookie (under any name), the secret in the query.
    for (const name of [`infradesk_${host.port}`, 'infradesk', 'secret']) {
      expect((await call({ cookie: `${name}=${SECRET}` })).status, name).toBe(401)
    }
    expect((await call({}, `/__bridge/invoke/profiles.list?secret=${SECRET}`)).status).toBe(401)
    expect((await call({ 'x-infradesk-secret': SECRET })).status).toBe(200)
  })

  it('never sets a cookie, whatever the request', async () => {
    const answers = await Promise.all([
      send({ path: '/' }),
      send({ path: `/?secret=${SECRET}` }),
      send({ path: `/auth/${SECRET}` }),
      send({ path: '/profiles/abc', headers: withSecret }),
      send({ path: '/assets/app.js', headers: withSecret }),
      invoke('app.info', {}),
      send({ path: '/__bridge/events', headers: { 'x-infradesk-secret': 'wrong' } }),
    ])
    for (const answer of answers) {
      expect(answer.headers['set-cookie']).toBeUndefined()
      expect(answer.status).not.toBe(303)
      expect(answer.body).not.toContain(SECRET)
    }
  })

  it('refuses a foreign Host even with the secret (DNS rebinding)', async () => {
    for (const hostHeader of ['evil.test', `evil.test:${host.port}`, '127.0.0.1', `127.0.0.1:1`]) {
      const answer = await send({ path: '/', headers: { host: hostHeader } })
      expect(answer.status, hostHeader).toBe(421)
      const call = await invoke('profiles.list', {}, { host: hostHeader })
      expect(call.status, hostHeader).toBe(421)
      expect(call.body).not.toContain('Staging')
    }
    const ownName = await invoke('profiles.list', {}, { host: `localhost:${host.port}` })
    expect(ownName.status).toBe(200)
  })

  it('refuses a foreign Origin with 403, even with the secret', async () => {
    for (const origin of [
      'http://evil.test',
      `http://127.0.0.1:${host.port}.evil.test`,
      `https://127.0.0.1:${host.port}`,
      'null',
    ]) {
      const call = await invoke('profiles.list', {}, { origin })
      expect(call.status, origin).toBe(403)
      expect(call.body).not.toContain('Staging')
    }
    const own = await invoke('profiles.list', {}, { origin: host.origin })
    expect(own.status).toBe(200)
  })
})

describe('web host: the bridge', () => {
  it('carries a call and answers its Result as JSON', async () => {
    const info = await invoke('app.info', {})
    expect(info.status).toBe(200)
    expect(info.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(info.body)).toEqual({
      ok: true,
      value: { mode: 'web', version: '9.9.9-test', notices: [] },
    })
    const listed = JSON.parse((await invoke('profiles.list', {})).body)
    expect(listed.value.profiles).toEqual([
      expect.objectContaining({ id: profileId, name: 'Staging', signedIn: false }),
    ])
  })

  it('answers bad calls with a Result, never a handler run', async () => {
    expect(JSON.parse((await invoke('profiles.drop', {})).body)).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL' },
    })
    expect(JSON.parse((await invoke('profiles.remove', { id: 7 })).body)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: ['id'] }] },
    })
    const broken = await invokeWithBody('profiles.list', '{"unterminated')
    expect(broken.status).toBe(400)
    expect(JSON.parse(broken.body)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    })
  })

  it('accepts only JSON posts of a bounded size', async () => {
    const form = await invokeWithBody('profiles.list', 'a=1', {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(form.status).toBe(415)
    const viaGet = await send({ path: '/__bridge/invoke/profiles.list', headers: withSecret })
    expect(viaGet.status).toBe(405)
    const huge = await invoke('profiles.list', { padding: 'x'.repeat(5 * 1024 * 1024) })
    expect(huge.status).toBe(413)
  })

  it('streams bridge events as Server-Sent Events', async () => {
    // The call that causes the event is awaited too, so the host never closes under it.
    let activation: Promise<unknown> = Promise.resolve()
    const frame = await new Promise<unknown>((resolve, reject) => {
      const stream = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/__bridge/events',
          headers: { host: `127.0.0.1:${host.port}`, ...withSecret },
        },
        (response) => {
          expect(response.statusCode).toBe(200)
          expect(response.headers['content-type']).toMatch(/^text\/event-stream/)
          let buffer = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => {
            buffer += chunk
            // The stream is open once its first comment arrives: now cause an event.
            if (buffer.includes(': connected')) {
              buffer = buffer.replace(': connected', '')
              activation = invoke('profiles.activate', { id: profileId })
            }
            const message = /^data: (.*)\n\n/m.exec(buffer)
            if (message) {
              resolve(JSON.parse(message[1]!))
              stream.destroy()
            }
          })
        },
      )
      stream.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error)
      })
      stream.end()
    })
    expect(frame).toEqual({ event: 'profiles.changed', payload: {} })
    expect(await activation).toMatchObject({ status: 200 })
  })
})

describe('web host: the renderer files', () => {
  /** Reads `filePath` as the page does: it must be there, served as `contentType`. */
  async function expectServed(filePath: string, contentType: string) {
    const response = await send({ path: filePath, headers: withSecret })
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe(contentType)
    return response
  }

  it('serves files with their content type and the security headers', async () => {
    const script = await expectServed('/assets/app.js', 'text/javascript; charset=utf-8')
    expect(script.body).toBe('console.log("app")\n')
    expect(script.headers['x-content-type-options']).toBe('nosniff')
    const csp = script.headers['content-security-policy'] ?? ''
    for (const directive of [
      "default-src 'self'",
      "connect-src 'self'",
      "img-src 'self' data:",
      "style-src 'self' 'unsafe-inline'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive)
    }
    await expectServed('/assets/style.css', 'text/css; charset=utf-8')
  })

  it('answers client routes with index.html, its asset paths made absolute', async () => {
    const page = await expectServed('/profiles/abc', 'text/html; charset=utf-8')
    expect(page.body).toContain('src="/assets/app.js"')
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect((await send({ path: '/assets/missing.js', headers: withSecret })).status).toBe(404)
  })

  it('never serves a file outside the renderer folder', async () => {
    for (const rawPath of [
      '/../outside.txt',
      '/assets/../../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/%2e%2e%2f%2e%2e%2foutside.txt',
      '/..%5coutside.txt',
      '/assets/..%5c..%5coutside.txt',
      '/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/assets%00/app.js',
      '/%E0%A4%A',
    ]) {
      const answer = await send({ path: rawPath, headers: withSecret })
      expect(answer.status, rawPath).toBe(400)
      expect(answer.body).not.toContain(OUTSIDE_FILE_TEXT)
      expect(answer.body).not.toContain('root:')
    }
  })
})

/** A raw connection, so a test can send half a request, or a body that never ends. */
function rawConnection(port: number) {
  const socket = connect({ host: '127.0.0.1', port })
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (received += chunk))
  // ECONNRESET or EPIPE once the host closes on us: expected, the close is what is checked.
  socket.on('error', () => undefined)
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  return { socket, closed, connected, received: () => received }
}

/** True when `promise` settles within `ms`. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ])
}

function requestHead(port: number, lines: string[]): string {
  return [...lines.slice(0, 1), `Host: 127.0.0.1:${port}`, ...lines.slice(1), '', ''].join('\r\n')
}

/** Sends 64 KiB chunks of an endless chunked body until the host closes or `cap` bytes went. */
async function writeEndlessBody(socket: Socket, closed: Promise<void>, cap: number) {
  const chunk = Buffer.alloc(64 * 1024, 'x')
  const framed = Buffer.concat([Buffer.from('10000\r\n'), chunk, Buffer.from('\r\n')])
  let written = 0
  while (written < cap && !socket.destroyed) {
    const flushed = socket.write(framed)
    written += chunk.length
    if (!flushed) {
      await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed])
    }
  }
  return written
}

describe('web host: telling when the page was served', () => {
  it('tells when the HTML was sent, when its first file was asked for, then when every file it names was, once per page', async () => {
    const served: string[] = []
    const watched = await startWebHost({
      desk: testDesk.desk,
      rendererDir: path.join(testDesk.temp.dir, 'renderer'),
      secret: SECRET,
      onPageServed: () => served.push('html'),
      onPageFilesAsked: () => served.push('asked'),
      onPageFilesServed: () => served.push('page'),
    })
    try {
      const get = (pathname: string) =>
        send({ path: pathname, headers: withSecret, port: watched.port })
      // Files before any page, a file the page does not name, a missing one: nothing to tell.
      expect((await get('/assets/app.js')).status).toBe(200)
      expect((await get('/assets/style.css')).status).toBe(200)
      expect((await get('/assets/missing.js')).status).toBe(404)
      expect(served).toEqual([])
      expect((await get('/')).body).toContain('src="/assets/app.js"')
      // The page alone is not its files: its script is still to come.
      await waitUntil(() => served.length === 1, { what: 'the HTML told as served' })
      expect((await get('/assets/style.css')).status).toBe(200)
      expect(served).toEqual(['html'])
      expect((await get('/assets/app.js')).status).toBe(200)
      // Told when the host has handed the script's last byte over, which the client may see first.
      await waitUntil(() => served.length === 3, { what: 'the page told as served' })
      await get('/assets/app.js')
      expect(served).toEqual(['html', 'asked', 'page'])
      // A reload: the page and its script again.
      await get('/profiles/abc')
      await get('/assets/app.js')
      await waitUntil(() => served.length === 6, { what: 'the reloaded page told as served' })
      expect(served).toEqual(['html', 'asked', 'page', 'html', 'asked', 'page'])
    } finally {
      await watched.close()
    }
  })
  it('sends the files a page names as they were when it was served, then from the disk again', async () => {
    const held = await startWebHost({
      desk: testDesk.desk,
      rendererDir: path.join(testDesk.temp.dir, 'renderer'),
      secret: SECRET,
    })
    const get = (pathname: string) => send({ path: pathname, headers: withSecret, port: held.port })
    try {
      expect((await get('/')).status).toBe(200)
      // Read when the page went out: a rebuild in between does not reach this page's request.
      await testDesk.temp.write('renderer/assets/app.js', 'console.log("rebuilt")\n')
      const first = await get('/assets/app.js')
      expect(first.status).toBe(200)
      expect(first.body).toBe('console.log("app")\n')
      expect(first.headers['content-type']).toBe('text/javascript; charset=utf-8')
      expect(first.headers['content-length']).toBe(String(Buffer.byteLength(first.body)))
      // Held once: the next request reads the disk, as every request did before.
      expect((await get('/assets/app.js')).body).toBe('console.log("rebuilt")\n')
    } finally {
      await testDesk.temp.write('renderer/assets/app.js', 'console.log("app")\n')
      await held.close()
    }
  })
})

describe('web host: limits', () => {
  const SMALL = { headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnections: 3 }
  let small: WebHost

  beforeAll(async () => {
    small = await startWebHost({
      desk: testDesk.desk,
      rendererDir: path.join(testDesk.temp.dir, 'renderer'),
      secret: SECRET,
      limits: { ...SMALL, maxBodyBytes: 1024 },
    })
  })

  afterAll(async () => {
    await small?.close()
  })

  /** A raw connection to `target` that has sent the head of a bridge POST whose body `bodyHeader` announces. */
  async function bridgePostHead(target: WebHost, bodyHeader: string) {
    const connection = rawConnection(target.port)
    await connection.connected
    connection.socket.write(
      requestHead(target.port, [
        'POST /__bridge/invoke/profiles.list HTTP/1.1',
        `x-infradesk-secret: ${SECRET}`,
        'content-type: application/json',
        bodyHeader,
      ]),
    )
    return connection
  }

  it('sets explicit timeouts, a connection cap and a body limit on its server', () => {
    expect(host.limits).toEqual(DEFAULT_LIMITS)
    expect(DEFAULT_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnections: 64,
      maxBodyBytes: 4 * 1024 * 1024,
    })
    expect(small.limits).toEqual({ ...SMALL, maxBodyBytes: 1024 })
  })

  it('answers 413 to a body declared too large and closes the connection without reading it', async () => {
    const declared = 100 * 1024 * 1024
    const { socket, closed, received } = await bridgePostHead(host, `content-length: ${declared}`)
    socket.write('{"padding":"')
    // Only the head and a dozen bytes were sent: the answer cannot have waited for the body.
    expect(await settlesWithin(closed, 3_000)).toBe(true)
    expect(received()).toMatch(/^HTTP\/1\.1 413 /)
    expect(received()).toMatch(/\r\nconnection: close\r\n/i)
  })

  it('stops reading a body that passes the limit as it streams, answers 413 and closes', async () => {
    const { socket, closed, received } = await bridgePostHead(small, 'transfer-encoding: chunked')
    const cap = 256 * 1024 * 1024
    const written = await writeEndlessBody(socket, closed, cap)
    // What was written beyond the first chunks sat in the kernel's socket buffers, unread.
    expect(written).toBeLessThan(cap / 4)
    expect(await settlesWithin(closed, 3_000)).toBe(true)
    expect(received()).toMatch(/^HTTP\/1\.1 413 /)
  })

  it('closes a connection whose headers do not arrive in time (408)', async () => {
    const { socket, closed, connected, received } = rawConnection(small.port)
    await connected
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${small.port}\r\n`)
    expect(await settlesWithin(closed, 3_000)).toBe(true)
    expect(received()).toMatch(/^HTTP\/1\.1 408 /)
  })

  it('closes a request whose body does not arrive in time (408)', async () => {
    const { socket, closed, received } = await bridgePostHead(small, 'content-length: 100')
    socket.write('{')
    expect(await settlesWithin(closed, 3_000)).toBe(true)
    expect(received()).toMatch(/^HTTP\/1\.1 408 /)
  })

  it('keeps the event stream open well past the request timeout', async () => {
    const { socket, closed, connected, received } = rawConnection(small.port)
    await connected
    socket.write(
      requestHead(small.port, ['GET /__bridge/events HTTP/1.1', `x-infradesk-secret: ${SECRET}`]),
    )
    // Several timeout checks (one a second) go by, each past requestTimeoutMs.
    expect(await settlesWithin(closed, 2_500)).toBe(false)
    expect(received()).toMatch(/^HTTP\/1\.1 200 /)
    const activated = await invoke('profiles.activate', { id: profileId })
    expect(activated.status).toBe(200)
    await expect.poll(received).toContain('data: {"event":"profiles.changed"')
    socket.destroy()
  })

  it('refuses a connection over its cap, and takes new ones once one has closed', async () => {
    const open = [rawConnection(small.port), rawConnection(small.port), rawConnection(small.port)]
    for (const connection of open) {
      await connection.connected
      connection.socket.write(requestHead(small.port, ['GET /assets/app.js HTTP/1.1']))
      // Answered, so the host has taken (and counts) the connection; keep-alive keeps it open.
      await expect.poll(connection.received).toMatch(/^HTTP\/1\.1 200 /)
    }
    const extra = rawConnection(small.port)
    extra.socket.write(requestHead(small.port, ['GET /assets/app.js HTTP/1.1']))
    expect(await settlesWithin(extra.closed, 2_000)).toBe(true)
    expect(extra.received()).toBe('')

    open[0]!.socket.destroy()
    await open[0]!.closed
    // The host learns of the close a moment later; until then a newcomer may still be refused.
    await expect
      .poll(async () => (await send({ path: '/assets/app.js', port: small.port })).status)
      .toBe(200)
    for (const connection of open) connection.socket.destroy()
  })
})
