import { describe, expect, it } from 'vitest'
import { ServiceError } from '../../src/main/api'
import { exportHeadOf, rawFileProblem, savedExportName } from '../../src/main/api/export-stream'
import { zipEntryNames, zipProblem } from '../../src/main/api/zip-listing'
import { fetchAllPages, pageInfoOf } from '../../src/main/features/certificates'
import { storedZip } from '../../src/sandbox/pki/zip'
import { formatAvailability } from '../../src/shared/bridge'

/*
 * The parts of the gateway work that need no service: the paging numbers of any envelope, the
 * page size learned from a refusal, a served ZIP judged before it is kept, the name a ZIP is
 * saved under, and which formats a listed certificate has.
 */

const items = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `c-${index}`, name: `c${index}` }))

/** A service that takes `limit` up to `max` (refusing more as `refusal` words it), as given. */
function boundedService(all: { id: string }[], max: number, refusal: string) {
  const asked: Record<string, unknown>[] = []
  const listPage = async (query: Record<string, unknown>) => {
    asked.push(query)
    const limit = query['limit'] === undefined ? 20 : Number(query['limit'])
    if (limit > max) {
      throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
        details: [{ path: 'limit', message: refusal }],
      })
    }
    const page = Number(query['page'])
    const total = all.length
    return {
      data: all.slice((page - 1) * limit, page * limit),
      pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
    }
  }
  return { asked, listPage }
}

describe('pageInfoOf', () => {
  it('reads meta, pagination, other usual names and the top level', () => {
    expect(pageInfoOf({ data: [], meta: { page: 1, limit: 50, total: 7 } })).toEqual({
      page: 1,
      limit: 50,
      total: 7,
    })
    expect(
      pageInfoOf({ data: [], pagination: { page: 2, limit: 20, total: 41, totalPages: 3 } }),
    ).toEqual({ page: 2, limit: 20, total: 41, totalPages: 3 })
    expect(
      pageInfoOf({ data: [], paging: { per_page: 10, total_count: 12, page_count: 2 } }),
    ).toEqual({
      limit: 10,
      total: 12,
      totalPages: 2,
    })
    expect(pageInfoOf({ data: [], totalCount: 9 })).toEqual({ total: 9 })
    // `count` is this page's rows on many services: never taken for the total.
    expect(pageInfoOf({ data: [], count: 3 })).toBeUndefined()
    expect(pageInfoOf({ data: [] })).toBeUndefined()
  })
})

describe('the page size a service states', () => {
  /** Walks `count` items of a service that refuses a page over 100 with `refusal`. */
  async function walkLearning(count: number, refusal: string) {
    const service = boundedService(items(count), 100, refusal)
    const learned: number[] = []
    const walk = await fetchAllPages({}, service.listPage, {
      onPageLimitLearned: (limit) => learned.push(limit),
    })
    return { service, learned, walk }
  }

  it('is learned from the refusal, told once, and asked from then on', async () => {
    const { service, learned, walk } = await walkLearning(
      230,
      'Number must be less than or equal to 100',
    )
    expect(walk.entries).toHaveLength(230)
    expect(walk.completeness).toBeNull()
    expect(learned).toEqual([100])
    expect(service.asked.map((query) => [query['page'], query['limit']])).toEqual([
      [1, 500],
      [1, 100],
      [2, 100],
      [3, 100],
    ])
  })

  it('a refusal that states no bound: asked again without limit (the service default)', async () => {
    const { service, learned, walk } = await walkLearning(45, 'Invalid page size')
    expect(walk.entries).toHaveLength(45)
    expect(learned).toEqual([])
    expect(service.asked[1]).not.toHaveProperty('limit')
  })

  it('a learned size is asked at once', async () => {
    const service = boundedService(items(150), 100, 'Must be at most 100')
    await fetchAllPages({}, service.listPage, { pageLimit: 100 })
    expect(service.asked.map((query) => query['limit'])).toEqual([100, 100])
  })

  it('totalPages alone proves the end (no total, no limit reported)', async () => {
    const asked: number[] = []
    const walk = await fetchAllPages({}, async (query) => {
      const page = Number(query['page'])
      asked.push(page)
      return { data: items(30).slice((page - 1) * 10, page * 10), pagination: { totalPages: 3 } }
    })
    expect(walk.entries).toHaveLength(30)
    expect(asked).toEqual([1, 2, 3])
  })
})

describe('a served ZIP', () => {
  const bundle = storedZip([
    { name: 'a.pem', bytes: Buffer.from('-----BEGIN CERTIFICATE-----\n') },
    { name: 'a.key', bytes: Buffer.from('-----BEGIN PRIVATE KEY-----\n') },
  ])
  const zipHead = exportHeadOf(
    new Headers({
      'content-type': 'application/zip',
      'content-disposition': 'attachment; filename="a.zip"',
    }),
  )

  it('lists its files; is kept for pem-bundle', () => {
    expect(zipEntryNames(bundle)).toEqual({ names: ['a.pem', 'a.key'] })
    expect(rawFileProblem('pem-bundle', bundle, zipHead)).toBeNull()
  })

  it('cut short, damaged, without PEM files, unannounced or for another format: refused', () => {
    expect(rawFileProblem('pem-bundle', bundle.subarray(0, bundle.length - 10), zipHead)).toMatch(
      /not readable: .*end-of-central-directory/,
    )
    const damaged = Buffer.from(bundle)
    damaged.writeUInt32LE(0, damaged.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])))
    expect(zipProblem(damaged)).toMatch(/entry 1 is damaged/)
    expect(zipProblem(storedZip([{ name: 'readme.txt', bytes: Buffer.from('hi') }]))).toMatch(
      /lists no PEM file/,
    )
    const silent = exportHeadOf(new Headers({ 'content-type': 'application/octet-stream' }))
    expect(rawFileProblem('pem-bundle', bundle, silent)).toMatch(/did not say/)
    expect(rawFileProblem('pem', bundle, zipHead)).toMatch(/came as a ZIP/)
  })

  it('is saved as .zip, the chosen name kept', () => {
    expect(savedExportName('www-bundle.pem', 'pem-bundle', zipHead)).toBe('www.zip')
    expect(savedExportName('chosen.pem', 'pem-bundle', zipHead)).toBe('chosen.zip')
    const pemHead = exportHeadOf(new Headers({ 'content-type': 'application/x-pem-file' }))
    expect(savedExportName('www-bundle.pem', 'pem-bundle', pemHead)).toBe('www-bundle.pem')
  })
})

describe('formatAvailability', () => {
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'

  it('internal: every format through the PKI certificate', () => {
    const item = { id: 'ssl-1', type: 'internal', internalCertId: 'pki-1', certificatePem: pem }
    expect(formatAvailability(item, 'pkcs12')).toEqual({
      available: true,
      via: 'service',
      id: 'pki-1',
    })
  })

  it('acme and upload: public parts from the list, key formats unavailable with the reason', () => {
    for (const [type, what] of [
      ['acme', 'an ACME certificate'],
      ['upload', 'an uploaded certificate'],
    ]) {
      const item = { id: 'ssl-2', type, internalCertId: null, certificatePem: pem, chainPem: null }
      expect(formatAvailability(item, 'fullchain')).toEqual({ available: true, via: 'list' })
      expect(formatAvailability(item, 'chain')).toMatchObject({ available: false })
      const key = formatAvailability(item, 'private-key')
      expect(key).toMatchObject({ available: false })
      expect(key.available ? '' : key.reason).toContain(
        `does not export the private key of ${what}`,
      )
    }
  })

  it("another service's certificate (no internalCertId field): by its own id, as before", () => {
    expect(formatAvailability({ id: 'x', type: 'letsencrypt' }, 'jks')).toEqual({
      available: true,
      via: 'service',
      id: 'x',
    })
  })
})
