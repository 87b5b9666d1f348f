import fc from 'fast-check'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Session } from '../../src/shared/api'
import { ExtraFields } from '../../src/renderer/src/features/sessions/ExtraFields'
import { displayValue, MAX_DISPLAY_CHARS } from '../../src/renderer/src/lib/extra-fields'

/*
 * The renderer's display of any JSON value the service might send: it never throws, stays
 * bounded, shows integers beyond 2^53 exactly (they arrive as their digit strings, see
 * src/main/api/json.ts), and never turns a value into markup. The component is rendered by React
 * to HTML, and the HTML is checked to contain no element but the ones the component makes.
 */

const hostileStrings = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '<img src=x onerror=alert(1)>',
    '<script>alert(1)</script>',
    '"><svg onload=alert(1)>',
    '</dd></dl><iframe src="javascript:alert(1)">',
    '&lt;b&gt;',
    '\u202e\u0000\ud800',
  ),
  fc.nat({ max: 200_000 }).map((length) => 'x'.repeat(length)),
)

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  hostileStrings,
  fc.dictionary(hostileStrings, hostileStrings, { maxKeys: 3 }),
  fc.bigInt().map((big) => big.toString()),
)

function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom'
  for (let level = 0; level < depth; level++) value = { level: value }
  return value
}

/** Tags the ExtraFields component itself writes; anything else would be injected markup. */
const OWN_TAGS = new Set(['dl', 'div', 'dt', 'dd'])

describe('displayValue', () => {
  it('never throws, and stays bounded, for any value', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        const text = displayValue(value)
        expect(typeof text).toBe('string')
        expect(text.length).toBeLessThanOrEqual(MAX_DISPLAY_CHARS + 40)
      }),
      { numRuns: 500 },
    )
  })

  it('survives nesting deeper than the stack, and cycles', () => {
    expect(displayValue(deeplyNested(200_000))).toBe('{…}')
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(displayValue(cycle)).toBe('{…}')
    expect(displayValue(10n ** 30n)).toBe('1000000000000000000000000000000')
  })

  it('shows integers beyond 2^53 as sent', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 200n }), (big) => {
        expect(displayValue(big.toString())).toBe(big.toString())
        expect(displayValue({ n: big.toString() })).toBe(`{"n":"${big}"}`)
      }),
    )
  })

  it('cuts a huge string with a note, never inside a surrogate pair', () => {
    const text = displayValue('😀'.repeat(5_000))
    expect(text).toMatch(/… \([\d,]+ more characters\)$/)
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
  })
})

describe('the extra fields of a session, rendered', () => {
  const base: Session = {
    id: 's-1',
    authMethod: 'oidc',
    createdAt: 0,
    lastSeenAt: 0,
    expiresAt: 0,
    ipAddress: null,
    userAgent: null,
    mfaSatisfiedAt: null,
    isCurrent: false,
  }

  it('shows any keys and values as text: no markup gets in', () => {
    fc.assert(
      fc.property(fc.dictionary(hostileStrings, anyValue, { minKeys: 1, maxKeys: 4 }), (extras) => {
        const session = { ...extras, ...base } as Session
        const html = renderToStaticMarkup(createElement(ExtraFields, { session }))
        const tags = [...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((match) => match[1])
        for (const tag of tags)
          expect(OWN_TAGS.has(tag as string), `<${tag}> in ${html.slice(0, 300)}`).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('a certificate-style name with markup appears as its own text', () => {
    const session = { ...base, note: '<img src=x onerror=alert(1)>' } as Session
    const html = renderToStaticMarkup(createElement(ExtraFields, { session }))
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toContain('<img')
  })
})
