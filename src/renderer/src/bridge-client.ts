import {
  channels,
  events,
  resultSchema,
  type BridgeError,
  type BridgeTransport,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
  type EventName,
  type EventPayload,
} from '../../shared/bridge'
import { fastSafeParse } from './fast-parse'
import { TransportError } from './web-transport'

/*
 * The typed bridge client: it checks everything that comes back against the shared contract
 * (the Result envelope, then the channel's output schema, or the event's payload schema), so
 * screens work with typed, validated values whatever transport carried them.
 */

/** A bridge call that answered `{ ok: false }`, or whose answer broke the contract. */
export class BridgeCallError extends Error {
  override name = 'BridgeCallError'
  readonly code: string
  readonly status: number | undefined
  readonly details: unknown
  /** The service operation that answered with this error, when it was the service's answer. */
  readonly operation: string | undefined
  readonly channel: string

  constructor(channel: string, error: BridgeError) {
    super(error.message)
    this.channel = channel
    this.code = error.code
    this.status = error.status
    this.details = error.details
    this.operation = error.operation
  }

  toBridgeError(): BridgeError {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      details: this.details,
      ...(this.operation === undefined ? {} : { operation: this.operation }),
    }
  }
}

/** Turns anything a call threw into the Result error shape the UI displays. */
export function asBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeCallError) return error.toBridgeError()
  if (error instanceof Error) return { code: 'UNEXPECTED', message: error.message }
  return { code: 'UNEXPECTED', message: String(error) }
}

export type EventHandler<E extends EventName> = (payload: EventPayload<E>) => void

export interface Bridge {
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>
  /** Subscribes to one event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, handler: EventHandler<E>): () => void
}

export function createBridge(transport: BridgeTransport): Bridge {
  return {
    async call(channel, input) {
      let raw: unknown
      try {
        raw = await transport.invoke(channel, input)
      } catch (error) {
        const status = error instanceof TransportError ? error.status : undefined
        const message = error instanceof Error ? error.message : String(error)
        throw new BridgeCallError(channel, { code: 'BRIDGE_UNAVAILABLE', message, status })
      }
      // The desktop's preload hands the Result on as JSON text (src/preload/index.ts).
      const result = resultSchema.safeParse(typeof raw === 'string' ? parsedOrNull(raw) : raw)
      if (!result.success) {
        throw new BridgeCallError(channel, {
          code: 'BAD_RESPONSE',
          message: `The app answered ${channel} with something that is not a bridge result`,
        })
      }
      if (!result.data.ok) throw new BridgeCallError(channel, result.data.error)
      // The contract's schema, checked on a fast path for big answers (fast-parse.ts).
      const output = fastSafeParse(channels[channel].output, result.data.value)
      if (!output.success) {
        throw new BridgeCallError(channel, {
          code: 'BAD_RESPONSE',
          message: `The app answered ${channel} with an unexpected shape`,
          details: output.error.issues.map((issue) => ({
            path: issue.path.map(String),
            message: issue.message,
          })),
        })
      }
      return output.data as ChannelOutput<typeof channel>
    },
    on(event, handler) {
      return transport.subscribe((name, payload) => {
        if (name !== event) return
        // Read here, not when subscribing: the contract builds an event's schema on first use,
        // and the app subscribes to its events at start, before any has arrived.
        const parsed = events[event].safeParse(payload)
        if (!parsed.success) {
          console.warn(`[bridge] ignored a malformed ${event} event`)
          return
        }
        handler(parsed.data as EventPayload<typeof event>)
      })
    },
  }
}

/** JSON text parsed; null when it is not JSON (then it is no Result, and said so). */
function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}
