import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  fetchAllPages,
  MAX_BYTES,
  MAX_ROWS,
  setWalkBoundsForTests,
} from '../../src/main/features/certificates'
import { runCli } from '../../src/cli/main'
import { EXIT } from '../../src/cli/exit-codes'
import type { ChannelOutput } from '../../src/shared/bridge'
import type { ListeningServer } from '../support/local-server'
import { startStandInService, useStandInDesk } from '../support/stand-in-service'

/*
 * Issue 38's probe, bounded paging: a service that sends one new 2 MiB certificate per page
 * kept the walk over op 16's pages going until its bound of 2,000 pages (~4 GB held). A walk is
 * now bounded by the certificates it holds and the bytes of the answers it read, and the list's
 * completeness note names the bound. The adversary is a stand-in of the probe's service (real
 * HTTP, real desk with its list worker and SQLite cache, the real CLI code in this process);
 * it stops after PAGES_BEFORE_GIVING_UP pages with an empty page, so a walk without the bounds
 * ends "complete" (and the test fails) instead of reading gigabytes.
 */

const BIG_ITEM_BYTES = 2 * 1024 * 1024
const PAGES_BEFORE_GIVING_UP = 12
const MiB = 1024 * 1024

let service: ListeningServer
let serviceUrl: string
/** Pages of op 16 served since the last reset, and the bytes of their bodies. */
let served = { pages: 0, bytes: 0 }
let itemBytes = BIG_ITEM_BYTES

function bigItem(page: number) {
  return {
    id: `cert-${page}`,
    name: `Certificate ${page}`,
    type: 'custom',
    status: 'active',
    // One new item per page, as big as the probe's: its bulk in a field the app keeps.
    notes: 'x'.repeat(itemBytes),
  }
}

beforeAll(async () => {
  service = await startStandInService({
    certificatePage: (page) => {
      const data = page > PAGES_BEFORE_GIVING_UP ? [] : [bigItem(page)]
      const body = JSON.stringify({ data })
      served = { pages: served.pages + 1, bytes: served.bytes + Buffer.byteLength(body) }
      return body
    },
    sessions: () => '[]',
  })
  serviceUrl = service.url
})

afterAll(async () => {
  await service.close()
})

afterEach(() => {
  setWalkBoundsForTests({})
  served = { pages: 0, bytes: 0 }
  itemBytes = BIG_ITEM_BYTES
})

describe('the walk is bounded by certificates held and bytes read', () => {
  it('the bounds: 200,000 certificates, 256 MiB of answers', () => {
    expect(MAX_ROWS).toBe(200_000)
    expect(MAX_BYTES).toBe(256 * MiB)
  })

  it('stops past its bound of bytes, counted as pages arrive, and says so', async () => {
    let calls = 0
    const { entries, completeness } = await fetchAllPages(
      {},
      async (query) => {
        calls += 1
        const page = Number(query['page'])
        // Gives up as the stand-in server does, so a walk without the bound ends soon.
        if (page > PAGES_BEFORE_GIVING_UP) return { data: [] }
        return { data: [{ id: `c${page}`, notes: 'x'.repeat(MiB) }] }
      },
      { maxBytes: 3 * MiB },
    )
    // Each page is a little over 1 MiB: the third passes 3 MiB.
    expect(calls).toBe(3)
    expect(entries).toHaveLength(3)
    expect(completeness).toMatchObject({ reason: 'byte-bound', received: 3, pages: 3 })
    expect(completeness?.message).toBe(
      '3 of at least 4: the app stopped after 3 pages, past its bound of 3 MiB of answers ' +
        '(3 MiB read) while the service was still sending new certificates',
    )
  })

  it('a list of exactly the bound ends whole', async () => {
    const pages = [[{ id: 'a' }, { id: 'b' }], [{ id: 'c' }], []]
    const { entries, completeness } = await fetchAllPages(
      {},
      async (query) => ({ data: pages[Number(query['page']) - 1] ?? [] }),
      { maxRows: 3, maxBytes: MiB },
    )
    expect(entries).toHaveLength(3)
    expect(completeness).toBeNull()
  })
})

describe("the probe's service through the desk (list worker, cache)", () => {
  const world = useStandInDesk('paging-bounds', () => serviceUrl, { requestTimeoutMs: 10_000 })

  it('one new 2 MiB certificate per page: the refresh stops at the bound of bytes', async () => {
    setWalkBoundsForTests({ maxBytes: 8 * MiB })
    const list = await world.desk.value<ChannelOutput<'certificates.refresh'>>(
      'certificates.refresh',
      {
        profileId: world.profileId,
        filter: {},
      },
    )
    // Four pages of a little over 2 MiB pass 8 MiB: the fifth is never asked for.
    expect(served.pages).toBe(4)
    expect(served.bytes).toBeGreaterThanOrEqual(8 * MiB)
    expect(served.bytes).toBeLessThan(8 * MiB + BIG_ITEM_BYTES + 1024)
    expect(list.rows).toHaveLength(4)
    expect(list.completeness).toEqual({
      reason: 'byte-bound',
      received: 4,
      expected: 5,
      pages: 4,
      message:
        '4 of at least 5: the app stopped after 4 pages, past its bound of 8 MiB of answers ' +
        '(8 MiB read) while the service was still sending new certificates',
    })
    // Kept with the cached part, so the screen says it again offline or after a restart.
    const cached = await world.desk.value<ChannelOutput<'certificates.cached'>>(
      'certificates.cached',
      {
        profileId: world.profileId,
        filter: {},
      },
    )
    expect(cached.completeness).toEqual(list.completeness)
  })

  it('one new certificate per page: the refresh stops at the bound of certificates', async () => {
    itemBytes = 10
    setWalkBoundsForTests({ maxRows: 5 })
    const list = await world.desk.value<ChannelOutput<'certificates.refresh'>>(
      'certificates.refresh',
      {
        profileId: world.profileId,
        filter: {},
      },
    )
    expect(served.pages).toBe(6)
    expect(list.completeness).toMatchObject({ reason: 'row-bound', received: 6, pages: 6 })
    expect(list.completeness?.message).toContain('past its bound of 5 certificates')
  })
})

describe("the probe's service through the CLI (certs list)", () => {
  it('prints the note on stderr and exits as for any partial list (7)', async () => {
    setWalkBoundsForTests({ maxBytes: 6 * MiB })
    const stderr: string[] = []
    const stdout: string[] = []
    const writeError = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr.push(String(chunk))
      return true
    })
    const writeOut = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout.push(String(chunk))
      return true
    })
    vi.stubEnv('INFRADESK_TOKEN', 'adversary-token')
    let code: number
    try {
      code = await runCli(['--url', serviceUrl, 'certs', 'list', '--json'])
    } finally {
      writeError.mockRestore()
      writeOut.mockRestore()
      vi.unstubAllEnvs()
    }
    expect(code).toBe(EXIT.badAnswer)
    expect(served.pages).toBe(3)
    // The rows the walk got are printed (a part, said on stderr), not held back.
    const printed = JSON.parse(stdout.join('')) as unknown[]
    expect(printed.length).toBeGreaterThan(0)
    expect(stderr.join('')).toContain(
      `The list is incomplete (${printed.length.toLocaleString('en-US')} rows printed): ` +
        '3 of at least 4: the app stopped after 3 pages, past its bound ' +
        'of 6 MiB of answers (6 MiB read) while the service was still sending new certificates',
    )
  })
})
