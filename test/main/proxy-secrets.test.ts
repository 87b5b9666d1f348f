import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ActivityEntry, Profile } from '../../src/shared/bridge'
import { openTestDesk } from '../support/desk'
import type { TestDesk } from '../support/desk'

/*
 * A proxy password from HTTP_PROXY is a secret like a token. A hostile (or merely chatty) proxy
 * that echoes the login in its refusal must not get it into a bridge error, the activity log
 * (SQLite) or the audit export. The proxy here is a stand-in built to do exactly that: no real
 * proxy echoes credentials on purpose, which is why the probe needed one.
 */

const USER = 'alice'
const PASSWORD = 'Pr0xy-pa55word-9f3k'
let echo: Server
let echoUrl: string
let sandbox: RunningSandbox
let desk: TestDesk
const profileIds: string[] = []

beforeAll(async () => {
  echo = createServer((request, response) => {
    const login = request.headers['proxy-authorization'] ?? ''
    const decoded = Buffer.from(login.replace(/^Basic /, ''), 'base64').toString('utf8')
    response.writeHead(502, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        code: 'INTERNAL_ERROR',
        message: `proxy refused ${decoded} (${login}) for ${request.url ?? ''}`,
        details: { login: decoded, header: login, password: decoded.split(':')[1] ?? '' },
      }),
    )
  })
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`
  sandbox = await startSandbox()
  desk = await openTestDesk('proxy-secrets', {
    environment: {
      HTTP_PROXY: `http://${USER}:${encodeURIComponent(PASSWORD)}@${echoUrl.slice(7)}`,
    },
  })
})

afterAll(async () => {
  await desk?.close(profileIds)
  await sandbox?.close()
  await new Promise((resolve) => echo?.close(resolve))
})

function leaks(text: string): string[] {
  const forms = [
    PASSWORD,
    encodeURIComponent(PASSWORD),
    Buffer.from(`${USER}:${PASSWORD}`).toString('base64'),
  ]
  return forms.filter((form) => text.includes(form))
}

describe('a proxy password from HTTP_PROXY', () => {
  it('is cut from bridge errors, the activity log and the audit export', async () => {
    // Added direct (no proxy), then switched to the environment's proxy, which echoes.
    const profile = await desk.value<Profile>('profiles.add', {
      name: 'Echoed',
      baseUrl: sandbox.url,
      color: '#2563eb',
      protected: false,
      token: sandbox.tokens.admin,
      proxy: { mode: 'none' },
    })
    profileIds.push(profile.id)
    await desk.value('profiles.update', { id: profile.id, proxy: { mode: 'system' } })

    // A write, so the refusal is recorded in the activity log too.
    const refused = await desk.failure('service.call', {
      profileId: profile.id,
      operation: 'cancelCopyJob',
      params: { id: '99999999-9999-4999-8999-999999999999' },
    })
    // The echo did reach the app (the refusal is the proxy's), and the password was cut.
    expect(refused.message).toContain('proxy refused')
    expect(leaks(JSON.stringify(refused))).toEqual([])

    const entries = await desk.value<ActivityEntry[]>('activity.list', {})
    expect(entries.length).toBeGreaterThan(0)
    expect(leaks(JSON.stringify(entries))).toEqual([])

    for (const format of ['csv', 'ndjson'] as const) {
      const exported = await desk.value<{ path: string | null }>('activity.export', { format })
      expect(exported.path).not.toBeNull()
      expect(leaks(await readFile(exported.path as string, 'utf8'))).toEqual([])
    }
    expect(leaks(desk.carried.join('\n'))).toEqual([])
  })
})
