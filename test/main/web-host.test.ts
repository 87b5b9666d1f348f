import { mkdirSync } from 'node:fs'
import { request } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import { networkInterfaces } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDesk } from '../../src/main/desk'
import type { Desk } from '../../src/main/desk'
import { createProfileStore, PROFILES_FILE_NAME } from '../../src/main/profiles'
import { startWebHost } from '../../src/main/web/host'
import type { WebHost } from '../../src/main/web/host'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * Web mode's host over real HTTP on loopback, with a real desk on a temporary data folder. The
 * requests are made with node:http so the test controls exactly what a hostile page or process
 * could send: Host, Origin, cookies and raw paths.
 */

const SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuv'
const OUTSIDE_FILE_TEXT = 'this file is outside the renderer folder'

let temp: TempDir
let desk: Desk
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
}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${host.port}`, ...options.headers },
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

function cookie(): string {
  return `infradesk_${host.port}=${SECRET}`
}

function invoke(channel: string, input: unknown, headers: Record<string, string> = {}) {
  return send({
    method: 'POST',
    path: `/__bridge/invoke/${channel}`,
    headers: { cookie: cookie(), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  })
}

beforeAll(async () => {
  temp = await makeTempDir('infradesk-web-host')
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
  // A profile already on disk, so a bridge call can change something and raise an event
  // without a service to talk to.
  const dataDir = path.join(temp.dir, 'data')
  profileId = createProfileStore(path.join(dataDir, PROFILES_FILE_NAME)).add({
    name: 'Staging',
    baseUrl: 'https://staging.example.com',
    color: '#16a34a',
    protected: false,
    kind: 'service',
  }).id
  desk = await createDesk({
    dataDir,
    mode: 'web',
    openExternal: async () => {},
    version: '9.9.9-test',
  })
  host = await startWebHost({
    desk,
    rendererDir: path.join(temp.dir, 'renderer'),
    port: 0,
    host: '127.0.0.1',
    secret: SECRET,
  })
})

afterAll(async () => {
  await host?.close()
  await desk?.close()
  await temp?.remove()
})

describe('web host: who may talk to it', () => {
  it('prints a loopback URL that carries the secret', () => {
    const url = new URL(host.url)
    expect(url.hostname).toBe('127.0.0.1')
    expect(url.searchParams.get('secret')).toBe(SECRET)
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

  it('answers 401 without the secret, for pages and for the bridge', async () => {
    expect((await send({ path: '/' })).status).toBe(401)
    expect((await send({ path: '/assets/app.js' })).status).toBe(401)
    const call = await send({
      method: 'POST',
      path: '/__bridge/invoke/profiles.list',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(call.status).toBe(401)
    expect(call.body).not.toContain('Staging')
    expect((await send({ path: '/__bridge/events' })).status).toBe(401)
  })

  it('answers 401 to a wrong secret in the URL, a header or a cookie', async () => {
    const wrong = `${SECRET.slice(0, -1)}X`
    const login = await send({ path: `/?secret=${wrong}` })
    expect(login.status).toBe(401)
    expect(login.headers['set-cookie']).toBeUndefined()
    expect((await send({ path: `/auth/${wrong}` })).status).toBe(401)
    expect((await send({ path: '/', headers: { 'x-infradesk-secret': wrong } })).status).toBe(401)
    expect(
      (await send({ path: '/', headers: { cookie: `infradesk_${host.port}=${wrong}` } })).status,
    ).toBe(401)
    // Another port's cookie (another Infradesk) is not ours.
    expect(
      (await send({ path: '/', headers: { cookie: `infradesk_${host.port + 1}=${SECRET}` } }))
        .status,
    ).toBe(401)
  })

  it('turns the secret into an HttpOnly SameSite=Strict cookie and drops it from the address', async () => {
    for (const loginPath of [`/?secret=${SECRET}`, `/auth/${SECRET}`]) {
      const login = await send({ path: loginPath })
      expect(login.status).toBe(303)
      expect(login.headers.location).toBe('/')
      const [setCookie] = login.headers['set-cookie'] ?? []
      expect(setCookie).toBeDefined()
      const attributes = setCookie!.split(';').map((part) => part.trim())
      expect(attributes[0]).toBe(`infradesk_${host.port}=${SECRET}`)
      expect(attributes).toContain('HttpOnly')
      expect(attributes).toContain('SameSite=Strict')
      expect(attributes).toContain('Path=/')
    }
    const page = await send({ path: '/', headers: { cookie: cookie() } })
    expect(page.status).toBe(200)
    expect(page.body).not.toContain(SECRET)
  })

  it('refuses a foreign Host even with the secret (DNS rebinding)', async () => {
    for (const hostHeader of ['evil.test', `evil.test:${host.port}`, '127.0.0.1', `127.0.0.1:1`]) {
      const answer = await send({ path: '/', headers: { host: hostHeader, cookie: cookie() } })
      expect(answer.status, hostHeader).toBe(421)
      const login = await send({ path: `/?secret=${SECRET}`, headers: { host: hostHeader } })
      expect(login.status, hostHeader).toBe(421)
      expect(login.headers['set-cookie']).toBeUndefined()
    }
    const ownName = await send({
      path: '/',
      headers: { host: `localhost:${host.port}`, cookie: cookie() },
    })
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
    const broken = await send({
      method: 'POST',
      path: '/__bridge/invoke/profiles.list',
      headers: { cookie: cookie(), 'content-type': 'application/json' },
      body: '{"unterminated',
    })
    expect(broken.status).toBe(400)
    expect(JSON.parse(broken.body)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    })
  })

  it('accepts only JSON posts of a bounded size', async () => {
    const form = await send({
      method: 'POST',
      path: '/__bridge/invoke/profiles.list',
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    })
    expect(form.status).toBe(415)
    const viaGet = await send({
      path: '/__bridge/invoke/profiles.list',
      headers: { cookie: cookie() },
    })
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
          headers: { host: `127.0.0.1:${host.port}`, cookie: cookie() },
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
  it('serves files with their content type and the security headers', async () => {
    const script = await send({ path: '/assets/app.js', headers: { cookie: cookie() } })
    expect(script.status).toBe(200)
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
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
    const style = await send({ path: '/assets/style.css', headers: { cookie: cookie() } })
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8')
  })

  it('answers client routes with index.html, its asset paths made absolute', async () => {
    const page = await send({ path: '/profiles/abc', headers: { cookie: cookie() } })
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('src="/assets/app.js"')
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect((await send({ path: '/assets/missing.js', headers: { cookie: cookie() } })).status).toBe(
      404,
    )
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
      const answer = await send({ path: rawPath, headers: { cookie: cookie() } })
      expect(answer.status, rawPath).toBe(400)
      expect(answer.body).not.toContain(OUTSIDE_FILE_TEXT)
      expect(answer.body).not.toContain('root:')
    }
  })
})
