import type { z } from 'zod'
import { toValidationIssues } from '../../shared/api'
import { toBridgeError as defaultToBridgeError, isServiceError } from '../api'
import { APP_ERROR_CODES, channels, fail, isChannelName, ok } from '../../shared/bridge'
import type { BridgeError, ChannelName, ChannelOutput, Channels, Result } from '../../shared/bridge'

/** What a handler receives: the input after the contract's schema parsed it (defaults filled). */
export type HandlerInput<C extends ChannelName> = z.output<Channels[C]['input']>

/** One handler per channel of the contract; the compiler refuses a missing one. */
export type BridgeHandlers = {
  [C in ChannelName]: (input: HandlerInput<C>) => Promise<ChannelOutput<C>>
}

export interface Dispatcher {
  /**
   * Runs one bridge call from an untrusted caller. Never throws: every outcome, including an
   * unknown channel, a malformed input and a failing handler, comes back as a Result.
   */
  dispatch(channel: unknown, input: unknown): Promise<Result<unknown>>
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

export function createDispatcher(
  handlers: BridgeHandlers,
  options: DispatcherOptions = {},
): Dispatcher {
  const toBridgeError = options.toBridgeError ?? defaultToBridgeError
  return {
    async dispatch(channel, input) {
      if (!isChannelName(channel)) {
        return fail({
          code: APP_ERROR_CODES.UNKNOWN_CHANNEL,
          // The name is echoed only when it is a short string, so a caller cannot make us
          // reflect arbitrary data (or a pasted secret) back in an error message.
          message: `Unknown bridge channel${describeChannel(channel)}`,
        })
      }
      // An absent input means "no fields" for the many channels whose input is an empty object.
      const parsed = channels[channel].input.safeParse(input ?? {})
      if (!parsed.success) {
        return fail({
          code: 'VALIDATION_ERROR',
          message: 'Request validation failed',
          details: toValidationIssues(parsed.error),
        })
      }
      try {
        return ok(await runHandler(handlers, channel, parsed.data))
      } catch (error) {
        if (!isServiceError(error)) options.onUnexpectedError?.(channel, error)
        return fail(toBridgeError(error))
      }
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
