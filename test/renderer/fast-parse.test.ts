import { describe, expect, it } from 'vitest'
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
