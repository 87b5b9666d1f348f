/*
 * Op 16's pages with items no list can show: two without a usable id (none; 201 characters)
 * among three certificates, over two pages. The sandbox never lists such an item, so a stand-in
 * service (or a walk's own page reader) answers these.
 */

/** What the walk's completeness note says of the two. */
export const TWO_NOT_SHOWN =
  '2 items the service listed have no usable id (a string of 1 to 200 characters) and are not shown'

/** The three certificates that have an id. */
export const LISTED_IDS = ['cert-1', 'cert-2', 'cert-3']

function certificate(id: unknown) {
  return { id, name: `site-${String(id)}.example`, type: 'custom', status: 'valid' }
}

/** Page 1: two certificates and the two id-less items; page 2: one more, then nothing. */
export const UNLISTED_PAGES: Readonly<Record<number, unknown[]>> = {
  1: [
    certificate('cert-1'),
    certificate(undefined),
    certificate('cert-2'),
    certificate('x'.repeat(201)),
  ],
  2: [certificate('cert-3')],
}

/** Page `page` (from 1) of the list above; empty past its end. */
export function unlistedPage(page: number): unknown[] {
  return UNLISTED_PAGES[page] ?? []
}
