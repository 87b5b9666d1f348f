import { readdirSync, readFileSync, statSync } from 'node:fs'
import { request } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { launchSecretOf } from '../../src/shared/bridge/web-protocol'
import { startTsxChild } from '../e2e/support/child'
import type { RunningChild } from '../e2e/support/child'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * Web mode as a user starts it (`tsx src/main/web/cli.ts`, the program `npm run web` runs), seen
 * from outside: who it refuses (wrong or missing secret, a foreign Host such as a DNS-rebinding
 * name, a foreign Origin on a bridge call and on the event stream), and what becomes of its
 * per-launch secret: different on every launch, never a cookie, and never written anywhere but
 * the fragment of the one address it prints for the user to open.
 */

interface Launch {
  child: RunningChild<{ url: string }>
  url: URL
  secret: string
  port: number
  dataDir: string
}

let temp: TempDir
const launches: Launch[] = []

async function launch(name: string): Promise<Launch> {
  const dataDir = path.join(temp.dir, name)
  const child = await startTsxChild({
    script: 'src/main/web/cli.ts',
    args: ['--port', '0', '--data-dir', dataDir],
    readyPrefix: 'WEB_READY',
    readySchema: z.looseObject({ url: z.url() }),
  })
  const url = new URL(child.ready.url)
  const secret = launchSecretOf(url)
  const started = { child, url, secret, port: Number(url.port), dataDir }
  launches.push(started)
  return started
}

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** A raw request, so the test sets Host, Origin and cookies exactly as an attacker could. */
function send(
  target: Launch,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
  readWholeBody = true,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${target.port}`, ...options.headers },
      },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        if (!readWholeBody) {
          // The event stream never ends: its status and headers are the answer.
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body })
          response.destroy()
          return
        }
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

const withSecret = (target: Launch) => ({ 'x-infradesk-secret': target.secret })
const bridgeCall = (target: Launch, headers: Record<string, string>) =>
  send(target, {
    method: 'POST',
    path: '/__bridge/invoke/profiles.list',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{}',
  })
const eventStream = (target: Launch, headers: Record<string, string>) =>
  send(target, { path: '/__bridge/events', headers }, false)

beforeAll(async () => {
  temp = await makeTempDir('infradesk-security-web')
  await launch('first')
}, 120_000)

afterAll(async () => {
  for (const started of launches) await started.child.stop()
  await temp?.remove()
})

describe('web mode refuses', () => {
  it('a missing or wrong secret, on bridge calls and the event stream', async () => {
    const [app] = launches as [Launch]
    const wrong = { 'x-infradesk-secret': `${app.secret.slice(0, -2)}xx` }
    // What a browser sends another port's server, and the secret anywhere but its header.
    const asCookie = { cookie: `infradesk_${app.port}=${app.secret}` }
    for (const headers of [{}, wrong, asCookie]) {
      const call = await bridgeCall(app, headers)
      expect(call.status).toBe(401)
      expect(call.body).toContain('open the address that `npm run web` printed')
      expect((await eventStream(app, headers)).status).toBe(401)
    }
    expect((await bridgeCall(app, withSecret(app))).status).toBe(200)
    expect((await eventStream(app, withSecret(app))).status).toBe(200)
  })

  it.each(['evil.test', '127.0.0.1.evil.test', 'evil.test:PORT', '127.0.0.1.evil.test:PORT'])(
    'Host: %s, even with the secret (DNS rebinding)',
    async (hostTemplate) => {
      const [app] = launches as [Launch]
      const host = hostTemplate.replace('PORT', String(app.port))
      const headers = { ...withSecret(app), host }
      expect((await send(app, { path: '/', headers })).status).toBe(421)
      expect((await bridgeCall(app, headers)).status).toBe(421)
      expect((await eventStream(app, headers)).status).toBe(421)
    },
  )

  it.each([
    'http://evil.test',
    'http://127.0.0.1.evil.test',
    'http://127.0.0.1:PORT.evil.test',
    'null',
  ])(
    'Origin: %s on a bridge call and on the event stream, even with the secret',
    async (originTemplate) => {
      const [app] = launches as [Launch]
      const origin = originTemplate.replace('PORT', String(app.port))
      const call = await bridgeCall(app, { ...withSecret(app), origin })
      expect(call.status).toBe(403)
      expect(call.body).not.toContain('profiles')
      expect((await eventStream(app, { ...withSecret(app), origin })).status).toBe(403)
      // Our own origin passes, so the refusal is about the origin and nothing else.
      const own = { ...withSecret(app), origin: `http://127.0.0.1:${app.port}` }
      expect((await eventStream(app, own)).status).toBe(200)
    },
  )
})

describe('the launch secret', () => {
  it('listens on loopback and prints a loopback address, the secret in its fragment', () => {
    const [app] = launches as [Launch]
    expect(app.url.hostname).toBe('127.0.0.1')
    expect(app.secret).toMatch(/^[\w-]{43}$/)
    // Browsers send neither the fragment nor put it in a Referer: the secret stays in the page.
    expect(app.url.hash).toBe(`#secret=${app.secret}`)
    expect(app.url.search).toBe('')
  })

  it('is never set as a cookie, and the pages are served without it', async () => {
    const [app] = launches as [Launch]
    const answers = [
      await send(app, { path: '/' }),
      await send(app, { path: `/?secret=${app.secret}` }),
      await send(app, { path: `/auth/${app.secret}` }),
      await bridgeCall(app, withSecret(app)),
    ]
    // 200, or 503 when out/renderer is not built: either way no secret was asked for.
    expect(answers[0]?.status).not.toBe(401)
    for (const answer of answers) {
      expect(answer.headers['set-cookie']).toBeUndefined()
      expect(answer.body).not.toContain(app.secret)
    }
  })

  it('is different on every launch', async () => {
    const second = await launch('second')
    const [first] = launches as [Launch]
    expect(second.secret).not.toBe(first.secret)
    expect(second.port).not.toBe(first.port)
  }, 120_000)

  it('is never logged: it appears only in the address printed to open, nowhere on disk', async () => {
    for (const app of launches) {
      // A refused attempt and a real call, so the log has had every chance to mention it.
      await bridgeCall(app, { 'x-infradesk-secret': `${app.secret}x` })
      await bridgeCall(app, withSecret(app))
      const lines = app.child.output().split('\n')
      const mentioning = lines.filter((line) => line.includes(app.secret))
      expect(mentioning.length).toBeGreaterThan(0)
      for (const line of mentioning) {
        expect(line).toMatch(/^(Infradesk web mode: |WEB_READY )/)
      }
      for (const file of filesUnder(app.dataDir)) {
        expect(readFileSync(file).includes(app.secret), file).toBe(false)
      }
    }
  })
})

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}
