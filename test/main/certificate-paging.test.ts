import { describe, expect, it } from 'vitest'
import { fetchAllPages, PAGE_LIMIT } from '../../src/main/features/certificates'

/*
 * The walk over op 16's pages (src/main/features/certificates/paging.ts) against services that
 * page in other ways than the sandbox: no `meta`, a page size capped below what was asked, a total
 * that disagrees with what arrives, pages that never end. No list is ever shown as whole when
 * the walk cannot prove it is.
 */

const items = (count: number, prefix = 'c') =>
  Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}`,
    name: `${prefix}${index}`,
  }))

/** A service that pages `all` by `size`, whatever limit is asked, sending `meta` as given. */
function service(all: { id: string }[], size: number, meta?: (page: number) => object) {
  const asked: Record<string, unknown>[] = []
  const listPage = async (query: Record<string, unknown>) => {
    asked.push(query)
    const page = Number(query['page'])
    const data = all.slice((page - 1) * size, page * size)
    return meta === undefined ? { data } : { data, meta: meta(page) }
  }
  return { asked, listPage }
}

describe('fetchAllPages', () => {
  it('without meta, walks past pages shorter than asked (a capped size) to an empty one', async () => {
    const capped = service(items(57), 25)
    const { entries, completeness } = await fetchAllPages({}, capped.listPage)
    expect(entries).toHaveLength(57)
    expect(completeness).toBeNull()
    expect(capped.asked.map((query) => query['page'])).toEqual([1, 2, 3, 4])
    expect(capped.asked[0]).toMatchObject({ limit: PAGE_LIMIT })
  })

  it('with meta.total, stops as soon as the total arrived (no extra request)', async () => {
    const honest = service(items(1_200), PAGE_LIMIT, (page) => ({ page, limit: 500, total: 1_200 }))
    const { entries, completeness } = await fetchAllPages({}, honest.listPage)
    expect(entries).toHaveLength(1_200)
    expect(completeness).toBeNull()
    expect(honest.asked).toHaveLength(3)
  })

  it('a total never delivered: walks on past a short page, then says what is missing', async () => {
    const short = service(items(57), 25, (page) => ({ page, limit: 25, total: 60 }))
    const { entries, completeness } = await fetchAllPages({}, short.listPage)
    expect(entries).toHaveLength(57)
    expect(completeness).toEqual({
      reason: 'total-mismatch',
      received: 57,
      expected: 60,
      pages: 4,
      message: '57 of at least 60: the service stopped answering pages',
    })
  })

  it('a total exceeded, or reached with repeats: says the list changed while it was read', async () => {
    const more = service(items(62), 25, (page) => ({ total: 60, page, limit: 25 }))
    const over = await fetchAllPages({}, more.listPage)
    expect(over.entries).toHaveLength(62)
    expect(over.completeness).toMatchObject({
      reason: 'total-mismatch',
      message: "62 arrived where the service's total said 60: the list changed while it was read",
    })

    // Rows shifted while paging: page 2 repeats one of page 1, so 3 distinct of a total of 4.
    const pages = [
      [{ id: 'a' }, { id: 'b' }],
      [{ id: 'b' }, { id: 'c' }],
    ]
    const shifted = await fetchAllPages({}, async (query) => ({
      data: pages[Number(query['page']) - 1] ?? [],
      meta: { page: query['page'], limit: 2, total: 4 },
    }))
    expect(shifted.completeness?.message).toBe(
      '3 of at least 4: some came twice (the list changed while it was read)',
    )
  })

  // A service that sends new certificates on every page, for ever.
  it.each([
    {
      bound: { maxPages: 5 },
      perPage: 3,
      calls: 5,
      completeness: {
        reason: 'page-bound',
        received: 15,
        expected: 16,
        pages: 5,
        message:
          '15 of at least 16: the app stopped after 5 pages while the service was still sending ' +
          'new certificates',
      },
    },
    {
      // The eighth passes the bound: the walk holds at most a page more than it.
      bound: { maxRows: 7 },
      perPage: 1,
      calls: 8,
      completeness: {
        reason: 'row-bound',
        received: 8,
        expected: 9,
        pages: 8,
        message:
          '8 of at least 9: the app stopped after 8 pages, past its bound of 7 certificates while ' +
          'the service was still sending new certificates',
      },
    },
  ])('stops at its bound ($bound) and says the service was still sending', async (bounded) => {
    let calls = 0
    const { entries, completeness } = await fetchAllPages(
      {},
      async (query) => {
        calls += 1
        return { data: items(bounded.perPage, `p${String(query['page'])}`) }
      },
      bounded.bound,
    )
    expect(calls).toBe(bounded.calls)
    expect(entries).toHaveLength(bounded.completeness.received)
    expect(completeness).toEqual(bounded.completeness)
  })

  it('a service that ignores `page` ends at the first page that brings nothing new', async () => {
    let calls = 0
    const { entries, completeness } = await fetchAllPages({}, async () => {
      calls += 1
      return { data: items(PAGE_LIMIT) }
    })
    expect(entries).toHaveLength(PAGE_LIMIT)
    expect(completeness).toBeNull()
    expect(calls).toBe(2)
  })
})
