import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { fastSafeParse } from '../../src/renderer/src/fast-parse'
import { channels } from '../../src/shared/bridge'
import { certificateListSchema } from '../../src/shared/bridge/channels/certificates'

/*
 * The fast path must be zod, only faster: for every value, the same success and the same
 * output; and when it refuses, zod's own issues.
 */

function expectSameAsZod(schema: z.ZodType, value: unknown) {
  const expected = schema.safeParse(value)
  const actual = fastSafeParse(schema, value)
  expect(actual.success, JSON.stringify(value)).toBe(expected.success)
  if (expected.success && actual.success) {
    expect(actual.data).toStrictEqual(expected.data)
  } else if (!expected.success && !actual.success) {
    expect(actual.error.issues).toEqual(expected.error.issues)
  }
}

function row(overrides: Record<string, unknown> = {}) {
  return {
    id: 'c1',
    name: 'api.example',
    type: 'letsencrypt',
    status: 'active',
    folderId: 'f1',
    folderPath: ['Production', 'APIs'],
    commonName: 'api.example',
    notAfter: '2027-01-01T00:00:00.000Z',
    isSystem: false,
    hasPrivateKey: true,
    ...overrides,
  }
}

function list(rows: unknown[], overrides: Record<string, unknown> = {}) {
  return {
    rows,
    folders: [{ id: 'f1', path: ['Production', 'APIs'] }],
    fetchedAt: 1_700_000_000_000,
    completeness: null,
    offline: false,
    error: null,
    ...overrides,
  }
}

describe('fastSafeParse on the certificate list', () => {
  it('gives zod’s output for valid lists, unknown keys stripped', () => {
    expectSameAsZod(certificateListSchema, list([row(), row({ id: 'c2' })]))
    expectSameAsZod(certificateListSchema, list([]))
    expectSameAsZod(
      certificateListSchema,
      list([
        row({
          type: null,
          status: null,
          folderId: null,
          folderPath: [],
          commonName: null,
          notAfter: null,
          hasPrivateKey: null,
          extra: { nested: true },
        }),
      ]),
    )
    expectSameAsZod(certificateListSchema, list([row()], { fetchedAt: null, surplus: 1 }))
    // The error object has optional fields: zod checks that part itself.
    expectSameAsZod(
      certificateListSchema,
      list([row()], { offline: true, error: { code: 'OFFLINE', message: 'down' } }),
    )
    expectSameAsZod(
      certificateListSchema,
      list([row()], {
        error: { code: 'TIMEOUT', message: 'slow', status: 504, details: { after: 1 } },
      }),
    )
  })

  it('refuses what zod refuses, with zod’s issues', () => {
    const bad: Record<string, unknown>[] = [
      { id: '' },
      { id: 'x'.repeat(201) },
      { id: 7 },
      { name: null },
      { type: 3 },
      { folderPath: 'Production' },
      { folderPath: ['ok', 2] },
      { isSystem: 'false' },
      { isSystem: null },
      { hasPrivateKey: 'yes' },
      { notAfter: undefined },
    ]
    for (const overrides of bad) expectSameAsZod(certificateListSchema, list([row(overrides)]))
    const { name: _missing, ...withoutName } = row()
    expectSameAsZod(certificateListSchema, list([withoutName]))
    expectSameAsZod(certificateListSchema, list([row(), null]))
    expectSameAsZod(certificateListSchema, list([row(), ['c3']]))
    expectSameAsZod(certificateListSchema, list([row()], { fetchedAt: Number.NaN }))
    expectSameAsZod(certificateListSchema, list([row()], { fetchedAt: Infinity }))
    expectSameAsZod(certificateListSchema, list([row()], { offline: undefined }))
    expectSameAsZod(certificateListSchema, list([row()], { error: { code: 'X' } }))
    expectSameAsZod(certificateListSchema, { ...list([row()]), rows: undefined })
    expectSameAsZod(certificateListSchema, null)
    expectSameAsZod(certificateListSchema, [])
  })
})

describe('fastSafeParse through z.lazy and optional fields', () => {
  it('compiles what a lazy schema stands for: zod is not asked about a valid list', () => {
    // certificateListSchema is a z.lazy of the list's object: the closures must see through it,
    // or every answer of 10,000 rows would be walked by jitless zod again.
    expect(certificateListSchema._zod.def.type).toBe('lazy')
    const asked = vi.spyOn(certificateListSchema, 'safeParse')
    try {
      // Whole, and only the first rows of a longer list (`firstOf`, an optional field).
      for (const value of [
        list([row(), row({ id: 'c2', extra: 'dropped' })]),
        list([row()], { firstOf: 10_000 }),
      ]) {
        const result = fastSafeParse(certificateListSchema, value)
        expect(asked).not.toHaveBeenCalled()
        expect(result).toStrictEqual({ success: true, data: certificateListSchema.parse(value) })
      }
    } finally {
      asked.mockRestore()
    }
  })

  it('agrees with zod on optional fields: absent, present, undefined, wrong', () => {
    const schema = z.object({ a: z.string(), b: z.int().optional(), c: z.string().optional() })
    for (const value of [
      { a: 'x' },
      { a: 'x', b: 3, c: 'y' },
      { a: 'x', b: undefined },
      { a: 'x', c: 3 },
      { b: 3 },
      { a: 'x', b: 1.5 },
    ]) {
      expectSameAsZod(schema, value)
    }
  })

  it('agrees with zod on lazy nodes inside objects and arrays, valid or not', () => {
    const inner = z.lazy(() => z.object({ n: z.number(), s: z.string().nullable() }))
    const schema = z.object({ items: z.array(inner), one: inner })
    const good = { items: [{ n: 1, s: null, x: 1 }], one: { n: 2, s: 'a' } }
    for (const value of [good, { ...good, one: { n: 'x', s: null } }, { items: [1], one: null }]) {
      expectSameAsZod(schema, value)
    }
  })
})

describe('fastSafeParse leaves to zod what it does not cover', () => {
  const cases: [string, z.ZodType, unknown[]][] = [
    ['loose objects', z.looseObject({ a: z.string() }), [{ a: 'x', b: 1 }, { b: 1 }]],
    ['strict objects', z.strictObject({ a: z.string() }), [{ a: 'x' }, { a: 'x', b: 1 }]],
    ['optional fields', z.object({ a: z.string().optional() }), [{}, { a: undefined }, { a: 1 }]],
    ['defaults', z.object({ a: z.number().default(3) }), [{}, { a: 4 }]],
    ['trimmed strings', z.object({ a: z.string().trim() }), [{ a: '  x ' }]],
    ['formats', z.object({ a: z.uuid() }), [{ a: 'nope' }, { a: crypto.randomUUID() }]],
    ['refinements', z.array(z.string()).min(1), [[], ['a']]],
    ['integers', z.number().int(), [1, 1.5]],
    // z.int() is a number with a format, not a check: the closures once took 1.5 for it.
    [
      'integer fields',
      z.object({ n: z.int(), m: z.int().nullable() }),
      [
        { n: 1, m: null },
        { n: 1.5, m: 2 },
        { n: 1, m: 2.5 },
      ],
    ],
    ['coercion', z.coerce.number(), ['3']],
    ['transforms', z.string().transform((text) => text.length), ['abc', 3]],
    [
      'enums and literals',
      z.object({ k: z.enum(['a', 'b']), l: z.literal(1) }),
      [
        { k: 'a', l: 1 },
        { k: 'c', l: 1 },
      ],
    ],
    ['unknown values', z.object({ a: z.unknown() }), [{}, { a: 1 }]],
    ['present undefined', z.object({ a: z.undefined() }), [{}, { a: undefined }]],
  ]
  for (const [name, schema, values] of cases) {
    it(name, () => {
      for (const value of values) expectSameAsZod(schema, value)
    })
  }

  it('agrees with zod on every channel’s output for a few shapeless values', () => {
    for (const channel of Object.values(channels)) {
      for (const value of [null, {}, [], 'text', 0, { rows: [] }]) {
        expectSameAsZod(channel.output, value)
      }
    }
  })
})
