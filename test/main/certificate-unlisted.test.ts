import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchAllPages } from '../../src/main/features/certificates/paging'
import type { ChannelOutput, ListCompleteness } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { TWO_NOT_SHOWN as NOT_SHOWN, UNLISTED_PAGES as PAGES } from '../support/unlisted-pages'

/*
 * Nothing the service lists is dropped silently: an item without a usable id (none, empty, over
 * 200 characters; one not a string breaks op 16's contract and fails the read aloud) cannot be shown, selected or exported, so the walk over
 * op 16's pages counts it and the list's completeness note says how many: the CLI's walk, the
 * app's refresh (pages read in the list worker, the note kept in the SQLite cache with the
 * list) and the screen's banner. The sandbox never lists such an item, so a small HTTP server
 * stands in for the service here. Run under scripts/with-keyring.mjs.
 */

/** The walk's note on the pages below: read whole, two items not shown. */
const WHOLE_BUT_TWO_UNLISTED: ListCompleteness = {
  reason: 'unlisted',
  received: 3,
  expected: 5,
  pages: 3,
  message: NOT_SHOWN,
  unlisted: 2,
}

let service: Server
let serviceUrl: string

beforeAll(async () => {
  service = createServer((request, response) => {
    request.resume()
    const url = new URL(request.url ?? '/', 'http://service')
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (url.pathname === '/api/ssl-certificates') {
      return reply(200, { data: PAGES[Number(url.searchParams.get('page'))] ?? [] })
    }
    if (url.pathname === '/auth/me/sessions') {
      const at = 1_700_000_000_000
      return reply(200, [
        {
          id: 'session-1',
          authMethod: 'oidc',
          createdAt: at,
          lastSeenAt: at,
          expiresAt: at * 2,
          ipAddress: null,
          userAgent: null,
          mfaSatisfiedAt: null,
          isCurrent: true,
        },
      ])
    }
    return reply(404, { code: 'NOT_FOUND', message: 'Not found' })
  })
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => service.close(resolve))
})

describe('items the service listed without a usable id', () => {
  it('the walk (as the CLI reads it) counts them in its completeness note', async () => {
    const { entries, completeness } = await fetchAllPages({}, async (query) => ({
      data: PAGES[Number(query['page'])] ?? [],
    }))
    expect(entries.map((entry) => entry.row.id)).toEqual(['cert-1', 'cert-2', 'cert-3'])
    expect(completeness).toEqual(WHOLE_BUT_TWO_UNLISTED)
  })

  it('a page seen again (a service that ignores `page`) is not counted twice', async () => {
    const { completeness } = await fetchAllPages({}, async () => ({ data: PAGES[1] ?? [] }))
    expect(completeness?.unlisted).toBe(2)
  })

  it("are said beside what ended a walk short, and count toward the service's total", async () => {
    const total = (value: number) => async (query: Record<string, unknown>) => ({
      data: PAGES[Number(query['page'])] ?? [],
      meta: { total: value },
    })
    // 3 certificates and 2 id-less items are the 5 the service counted: whole, but 2 not shown.
    expect((await fetchAllPages({}, total(5))).completeness).toMatchObject({
      reason: 'unlisted',
      expected: 5,
    })
    const short = (await fetchAllPages({}, total(7))).completeness
    expect(short).toMatchObject({ reason: 'total-mismatch', unlisted: 2, expected: 7 })
    expect(short?.message).toMatch(/^3 of at least 7: /)
    expect(short?.message.endsWith(`; ${NOT_SHOWN}`)).toBe(true)
  })

  describe('through the desk', () => {
    let desk: TestDesk
    let profileId: string

    beforeAll(async () => {
      desk = await openTestDesk('certificate-unlisted', { requestTimeoutMs: 10_000 })
      const profile = await desk.addProfile(
        { url: serviceUrl, tokens: { admin: 'unlisted-token' } },
        { name: 'Unlisted', sessionOnly: true },
      )
      profileId = profile.id
    })

    afterAll(async () => {
      await desk?.close()
    })

    it('a refresh (pages read in the list worker) says so, and the cache keeps the note', async () => {
      type List = ChannelOutput<'certificates.refresh'>
      const refreshed = await desk.value<List>('certificates.refresh', { profileId })
      expect(refreshed.rows.map((row) => row.id).sort()).toEqual(['cert-1', 'cert-2', 'cert-3'])
      expect(refreshed.completeness).toMatchObject({ reason: 'unlisted', unlisted: 2 })
      expect(refreshed.completeness?.message).toBe(NOT_SHOWN)
      await desk.reopen()
      const cached = await desk.value<List>('certificates.cached', { profileId })
      expect(cached.completeness).toEqual(refreshed.completeness)
    })
  })
})
