import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createDispatcher } from '../../src/main/bridge/dispatcher'
import type { BridgeHandlers } from '../../src/main/bridge/dispatcher'
import { channels, CHANNEL_NAMES } from '../../src/shared/bridge'
import type { ChannelName, Result } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'

/*
 * Every bridge channel fuzzed with invalid input: the contract's schema refuses it with
 * VALIDATION_ERROR and no handler runs. The loop is over CHANNEL_NAMES, so a channel added to the
 * contract is fuzzed without touching this file. First against a dispatcher whose handlers only
 * record that they ran, then against the real desk (real handlers, SQLite, profiles file), whose
 * state must not change.
 */

/** What the dispatcher does with an absent input: it means "no fields". */
const asDispatched = (input: unknown) => input ?? {}

function rejects(channel: ChannelName, input: unknown): boolean {
  return !channels[channel].input.safeParse(asDispatched(input)).success
}

/** The field names of a channel's input object (empty for inputs that are not objects). */
function fieldsOf(channel: ChannelName): string[] {
  const schema: unknown = channels[channel].input
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : []
}

/** Hostile values: wrong types, huge and odd strings, prototype keys, deep nesting. */
const hostileValue = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a'.repeat(100_000),
    '../../../etc/passwd',
    '<img src=x onerror=alert(1)>',
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -1,
    2 ** 53 + 1,
    true,
    null,
    [],
    {},
    { __proto__: { polluted: true } },
    JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
  ),
  fc.letrec((tie) => ({
    deep: fc.oneof({ depthSize: 'small' }, fc.constant(0), fc.array(tie('deep'), { maxLength: 2 })),
  })).deep,
)

/** Invalid inputs for one channel: whole wrong values, and its own fields with wrong values. */
function invalidInputFor(channel: ChannelName) {
  const fields = fieldsOf(channel)
  const wholeValue = fc.anything({ maxDepth: 2 })
  const wrongFields =
    fields.length === 0
      ? wholeValue
      : fc.dictionary(fc.constantFrom(...fields), hostileValue, { minKeys: 1 })
  return fc.oneof(wholeValue, wrongFields).filter((input) => rejects(channel, input))
}

function recordingDispatcher() {
  const ran: string[] = []
  const handlers = Object.fromEntries(
    CHANNEL_NAMES.map((channel) => [
      channel,
      async () => {
        ran.push(channel)
        return null
      },
    ]),
  ) as unknown as BridgeHandlers
  return { dispatcher: createDispatcher(handlers), ran }
}

function expectValidationError(result: Result<unknown>, label: string) {
  expect(result.ok, label).toBe(false)
  if (!result.ok) {
    expect(result.error.code, label).toBe('VALIDATION_ERROR')
    expect(Array.isArray(result.error.details), label).toBe(true)
  }
}

describe('every channel refuses invalid input before any handler runs', () => {
  it('covers the whole contract', () => {
    expect(CHANNEL_NAMES.length).toBeGreaterThan(15)
  })

  it.each(CHANNEL_NAMES)('%s', async (channel) => {
    const { dispatcher, ran } = recordingDispatcher()
    await fc.assert(
      fc.asyncProperty(invalidInputFor(channel), async (input) => {
        const result = await dispatcher.dispatch(channel, input)
        expectValidationError(result, `${channel} ${safeJson(input)}`)
      }),
      { numRuns: 60 },
    )
    expect(ran).toEqual([])
  })

  it('unknown and malformed channel names reach no handler', async () => {
    const { dispatcher, ran } = recordingDispatcher()
    await fc.assert(
      fc.asyncProperty(
        fc
          .anything()
          .filter(
            (name) => typeof name !== 'string' || !CHANNEL_NAMES.includes(name as ChannelName),
          ),
        fc.anything(),
        async (name, input) => {
          const result = await dispatcher.dispatch(name, input)
          expect(result.ok).toBe(false)
          if (!result.ok) expect(result.error.code).toBe('UNKNOWN_CHANNEL')
        },
      ),
      { numRuns: 200 },
    )
    expect(ran).toEqual([])
  })
})

describe('the real desk under the same fuzzing', () => {
  let desk: TestDesk

  beforeAll(async () => {
    desk = await openTestDesk('fuzz', {
      openExternal: async () => {
        throw new Error('the fuzzer must never open a browser')
      },
    })
  })
  afterAll(async () => {
    await desk?.close()
  })

  async function snapshot() {
    const read = async (channel: string, input: unknown) =>
      JSON.stringify(await desk.call(channel, input))
    return [
      await read('profiles.list', {}),
      await read('activity.list', {}),
      await read('settings.get', {}),
    ]
  }

  it('answers VALIDATION_ERROR on every channel and changes nothing', async () => {
    const before = await snapshot()
    for (const channel of CHANNEL_NAMES) {
      const samples = fc.sample(invalidInputFor(channel), { numRuns: 15, seed: 9 })
      for (const input of samples) {
        expectValidationError(await desk.call(channel, input), `${channel} ${safeJson(input)}`)
      }
    }
    expect(await snapshot()).toEqual(before)
  }, 60_000)
})

function safeJson(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 200)
  } catch {
    return String(value)
  }
}
