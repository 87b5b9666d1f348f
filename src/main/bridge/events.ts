import type { EventName, EventPayload } from '../../shared/bridge'

/** One pushed event as every transport carries it: the event name and its payload. */
export type BridgeEventListener = (event: EventName, payload: unknown) => void

export interface EventHub {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  /** Adds a listener (one per transport or window); returns the function that removes it. */
  subscribe(listener: BridgeEventListener): () => void
  /** How many listeners are attached (web mode uses it to tell when a page is open). */
  size(): number
}

/**
 * A small typed emitter fanned out to the transports. A listener that throws (a closed window,
 * a dropped HTTP stream) must not stop the others from receiving the event, so each call is
 * guarded on its own.
 */
export function createEventHub(onListenerError?: (error: unknown) => void): EventHub {
  const listeners = new Set<BridgeEventListener>()
  return {
    emit(event, payload) {
      for (const listener of [...listeners]) {
        try {
          listener(event, payload)
        } catch (error) {
          onListenerError?.(error)
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    size: () => listeners.size,
  }
}
