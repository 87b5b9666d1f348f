import { describe, expect, it } from 'vitest'
import { transportMismatch } from '../support/serialisation-guard'

/*
 * The guard test/support/desk.ts applies to every bridge answer and event of the suite:
 * what it lets through arrives the same over IPC (structured clone) and web mode (JSON).
 */

describe('transportMismatch', () => {
  it('lets plain JSON values through, and object properties left undefined', () => {
    for (const value of [
      null,
      0,
      'text',
      true,
      [1, 'a', null],
      { ok: true, value: { rows: [{ id: 'x', n: 1 }], next: null } },
      { ok: true, value: { optional: undefined, nested: { also: undefined } } },
      undefined,
    ]) {
      expect(transportMismatch(value)).toBeNull()
    }
  })

  it.each([
    ['a Date', { at: new Date(0) }, /arrives differently/],
    ['a Map', { byId: new Map([['a', 1]]) }, /arrives differently/],
    ['a Set', { ids: new Set(['a']) }, /arrives differently/],
    ['NaN', { ratio: Number.NaN }, /arrives differently/],
    ['Infinity', { ratio: Number.POSITIVE_INFINITY }, /arrives differently/],
    ['undefined in an array', { list: [1, undefined] }, /arrives differently/],
    ['a Buffer', { bytes: Buffer.from('ab') }, /arrives differently/],
    ['a BigInt', { count: 10n }, /cannot be sent as JSON/],
    ['a function', { onDone: () => undefined }, /cannot be sent over IPC/],
    [
      'a cycle',
      (() => {
        const node: Record<string, unknown> = {}
        node['self'] = node
        return node
      })(),
      /cannot be sent as JSON/,
    ],
  ])('refuses %s', (_name, value, reason) => {
    expect(transportMismatch(value)).toMatch(reason)
  })
})
