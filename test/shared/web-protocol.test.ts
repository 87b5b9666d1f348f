import { describe, expect, it } from 'vitest'
import {
  encodeEventMessage,
  launchSecretOf,
  launchUrl,
  readSecretFragment,
  takeEventData,
} from '../../src/shared/bridge/web-protocol'

/*
 * The two pieces of web mode's wire format that the host and the page must read alike: the
 * printed address (the launch secret in its fragment) and the event stream's framing.
 */

const SECRET = 'AbC-_0123456789abcdefghijklmnopqrstuvwxyz012'

describe('the printed address', () => {
  it('holds the secret in its fragment only, which browsers never send', () => {
    const url = new URL(launchUrl('http://127.0.0.1:4000', SECRET))
    expect(url.hash).toBe(`#secret=${SECRET}`)
    expect(`${url.origin}${url.pathname}${url.search}`).toBe('http://127.0.0.1:4000/')
    expect(launchSecretOf(url)).toBe(SECRET)
  })

  it('may be followed by an app route, which the page keeps', () => {
    expect(readSecretFragment(`#secret=${SECRET}#/certificates?id=7`)).toEqual({
      secret: SECRET,
      rest: '#/certificates?id=7',
    })
    expect(readSecretFragment(`#secret=${SECRET}`)).toEqual({ secret: SECRET, rest: '' })
  })

  it('is not read from anything else', () => {
    for (const hash of ['', '#/sessions', '#secret=', '#secret=a b', `#/x?secret=${SECRET}`]) {
      expect(readSecretFragment(hash), hash).toBeNull()
    }
    expect(launchSecretOf(`http://127.0.0.1:4000/?secret=${SECRET}`)).toBe('')
  })
})

describe('the event stream framing', () => {
  it('reads back what the host writes, across chunk boundaries, skipping comments', () => {
    const stream = `retry: 2000\n: connected\n\n${encodeEventMessage('a', { n: 1 })}: keepalive\n\n${encodeEventMessage('b', 'x\ny')}`
    const data: string[] = []
    let rest = ''
    for (let at = 0; at < stream.length; at += 7) {
      const taken = takeEventData(rest + stream.slice(at, at + 7))
      rest = taken.rest
      data.push(...taken.data)
    }
    expect(rest).toBe('')
    expect(data.map((item) => JSON.parse(item) as unknown)).toEqual([
      { event: 'a', payload: { n: 1 } },
      { event: 'b', payload: 'x\ny' },
    ])
  })
})
