import type { z } from 'zod'
import { toValidationIssues } from '../../shared/api'
import { toBridgeError as defaultToBridgeError, isServiceError } from '../api'
import { APP_ERROR_CODES, channels, fail, isChannelName, ok } from '../../shared/bridge'
import type { BridgeError, ChannelName, ChannelOutput, Channels, Result } from '../../shared/bridge'

/** What a handler receives: the input after the contract's schema parsed it (defaults filled). */
export type HandlerInput<C extends ChannelName> = z.output<Channels[C]['input']>

/**
 * A channel's handler. It may also carry `json`: the same answer written as UTF-8 JSON bytes by
 * the handler itself, for an answer main already holds as JSON text (the cached certificate
 * rows, stored as JSON in SQLite). The web host sends those bytes as they are, instead of
 * parsing the text into objects and serialising them again (~45 ms of the first 10,000-row
 * read). `json` must encode exactly what the handler returns; the tests hold them to it.
 */
export type Handler<C extends ChannelName> = ((
  input: HandlerInput<C>,
) => Promise<ChannelOutput<C>>) & {
  json?: (input: HandlerInput<C>) => Promise<Buffer | OkResultJson>
}

/** `{"ok":true,"value":`: how the bytes of an ok Result begin (see OkResultJson). */
export const OK_RESULT_OPENING = '{"ok":true,"value":'

/**
 * A `json` writer's answer that already holds the whole ok Result
 * (`{"ok":true,"value":…}`), sent as it is. For answers of megabytes: wrapping the value in
 * the envelope is a copy of all of it, and a fresh 10 MB buffer costs ~35 ms of page faults on
 * main's loop on a VM (profiled, the stalls bench's session list).
 */
export class OkResultJson {
  constructor(readonly bytes: Buffer) {}
}

/** One handler per channel of the contract; the compiler refuses a missing one. */
export type BridgeHandlers = {
  [C in ChannelName]: Handler<C>
}

/** A handler together with its answer written as JSON bytes (see Handler). */
export function answersAsJson<C extends ChannelName>(
  handler: (input: HandlerInput<C>) => Promise<ChannelOutput<C>>,
  json: (input: HandlerInput<C>) => Promise<Buffer | OkResultJson>,
): Handler<C> {
  return Object.assign(handler, { json })
}

export interface Dispatcher {
  /**
   * Runs one bridge call from an untrusted caller. Never throws: every outcome, including an
   * unknown channel, a malformed input and a failing handler, comes back as a Result.
   */
  dispatch(channel: unknown, input: unknown): Promise<Result<unknown>>
  /**
   * The same call, its Result as UTF-8 JSON (what the web host sends): through the handler's
   * `json` when it has one, otherwise `dispatch` serialised.
   */
  dispatchJson(channel: unknown, input: unknown): Promise<Buffer>
}

export interface DispatcherOptions {
  /**
   * Turns a thrown error into a bridge error; the service client's converter by default. It must
   * never put a token into the message.
   */
  toBridgeError?(error: unknown): BridgeError
  /**
   * Told about every error that is not a ServiceError (a bug, a library's failure): the user
   * sees a generic message, so this is where the cause can be diagnosed.
   */
  onUnexpectedError?(channel: ChannelName, error: unknown): void
}

/** `{"ok":true,"value":` and `}`: the envelope ok() makes, around bytes already JSON. */
const OK_OPENING = Buffer.from(OK_RESULT_OPENING)
const OK_CLOSING = Buffer.from('}')

export function createDispatcher(
  handlers: BridgeHandlers,
  options: DispatcherOptions = {},
): Dispatcher {
  const toBridgeError = options.toBridgeError ?? defaultToBridgeError

  /** The channel and its parsed input, or the Result that refuses the call. */
  function accept(
    channel: unknown,
    input: unknown,
  ): { channel: ChannelName; input: unknown } | { refusal: Result<never> } {
    if (!isChannelName(channel)) {
      return {
        refusal: fail({
          code: APP_ERROR_CODES.UNKNOWN_CHANNEL,
          // The name is echoed only when it is a short string, so a caller cannot make us
          // reflect arbitrary data (or a pasted secret) back in an error message.
          message: `Unknown bridge channel${describeChannel(channel)}`,
        }),
      }
    }
    // An absent input means "no fields" for the many channels whose input is an empty object.
    const parsed = channels[channel].input.safeParse(input ?? {})
    if (!parsed.success) {
      return {
        refusal: fail({
          code: 'VALIDATION_ERROR',
          message: 'Request validation failed',
          details: toValidationIssues(parsed.error),
        }),
      }
    }
    return { channel, input: parsed.data }
  }

  /** The handler's answer, or its failure as a Result. */
  async function settle<T>(channel: ChannelName, run: () => Promise<T>): Promise<Result<T>> {
    try {
      return ok(await run())
    } catch (error) {
      if (!isServiceError(error)) options.onUnexpectedError?.(channel, error)
      return fail(toBridgeError(error))
    }
  }

  /** The handler's answer to an accepted call, as objects. */
  function answer(call: { channel: ChannelName; input: unknown }): Promise<Result<unknown>> {
    return settle(call.channel, () => runHandler(handlers, call.channel, call.input))
  }

  return {
    async dispatch(channel, input) {
      const call = accept(channel, input)
      return 'refusal' in call ? call.refusal : answer(call)
    },
    async dispatchJson(channel, input) {
      const call = accept(channel, input)
      if ('refusal' in call) return encodeJson(call.refusal)
      const json = jsonOf(handlers, call.channel)
      if (json === undefined) return encodeJson(await answer(call))
      const result = await settle(call.channel, () => json(call.input))
      if (!result.ok) return encodeJson(result)
      if (result.value instanceof OkResultJson) return result.value.bytes
      return Buffer.concat([OK_OPENING, result.value, OK_CLOSING])
    },
  }
}

/**
 * TypeScript cannot correlate `handlers[channel]` with `channels[channel]` for a union of
 * channel names, so the one call is made through a function type that takes what the schema
 * produced. The schema parse above is what makes the input the handler's type at run time.
 */
function runHandler(handlers: BridgeHandlers, channel: ChannelName, input: unknown) {
  const handler = handlers[channel] as (value: unknown) => Promise<unknown>
  return handler(input)
}

function encodeJson(result: Result<unknown>): Buffer {
  return Buffer.from(JSON.stringify(result), 'utf8')
}

/** The handler's `json`, typed the same way as runHandler's call. */
function jsonOf(
  handlers: BridgeHandlers,
  channel: ChannelName,
): ((value: unknown) => Promise<Buffer | OkResultJson>) | undefined {
  return (handlers[channel] as { json?: (value: unknown) => Promise<Buffer | OkResultJson> }).json
}

function describeChannel(channel: unknown): string {
  if (typeof channel === 'string' && /^[\w.:-]{1,64}$/.test(channel)) return ` "${channel}"`
  return ''
}

/**
 * One line for the log about an unexpected error: its class, its code and where it was thrown,
 * but not its message, which may quote a header or a value (a token must never reach a log).
 */
export function describeUnexpectedError(channel: string, error: unknown): string {
  if (!(error instanceof Error)) return `[bridge] ${channel} failed unexpectedly (${typeof error})`
  const code = (error as { code?: unknown }).code
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 6)
    .join('\n')
  return `[bridge] ${channel} failed unexpectedly: ${error.name}${typeof code === 'string' ? ` ${code}` : ''}\n${frames}`
}
