import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CompletenessBanner } from '../../src/renderer/src/features/certificates/CompletenessBanner'
import { certificateListSchema } from '../../src/shared/bridge/channels/certificates'

/*
 * The Certificates screen's note on a list the walk ended short: the
 * notes of the bounds on certificates and bytes pass the bridge's contract, as the page bound's
 * does, and the screen's banner shows them in words.
 */

const NOTES = [
  {
    reason: 'byte-bound',
    received: 128,
    expected: 129,
    pages: 128,
    message:
      '128 of at least 129: the app stopped after 128 pages, past its bound of 256 MiB of ' +
      'answers (256 MiB read) while the service was still sending new certificates',
  },
  {
    reason: 'row-bound',
    received: 200_500,
    expected: 200_501,
    pages: 401,
    message:
      '200,500 of at least 200,501: the app stopped after 401 pages, past its bound of ' +
      '200,000 certificates while the service was still sending new certificates',
  },
] as const

describe('the note of a walk ended by a bound', () => {
  it.each(NOTES)('$reason: crosses the bridge and is shown in words', (note) => {
    const list = certificateListSchema.parse({
      rows: [],
      folders: [],
      fetchedAt: 1,
      completeness: note,
      offline: false,
      error: null,
    })
    expect(list.completeness).toEqual(note)
    const html = renderToStaticMarkup(
      createElement(CompletenessBanner, { completeness: list.completeness! }),
    )
    expect(html).toContain('aria-label="List may be incomplete"')
    expect(html).toContain('The service may hold more certificates than listed')
    expect(html).toContain(note.message)
  })
})

describe('the note of a walk that left out items it could not list', () => {
  it('says some items are not shown, and how many', () => {
    const message =
      '2 items the service listed have no usable id (a string of 1 to 200 characters) and are not shown'
    const list = certificateListSchema.parse({
      rows: [],
      folders: [],
      fetchedAt: 1,
      completeness: {
        reason: 'unlisted',
        received: 3,
        expected: 5,
        pages: 3,
        message,
        unlisted: 2,
      },
      offline: false,
      error: null,
    })
    const html = renderToStaticMarkup(
      createElement(CompletenessBanner, { completeness: list.completeness! }),
    )
    expect(html).toContain('Some items the service listed are not shown')
    expect(html).toContain(message)
  })
})
