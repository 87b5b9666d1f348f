import type { BridgeTransport } from '../../shared/bridge'

/*
 * The page's first bridge calls, sent before the bulk of its script evaluates. ES modules run
 * only once every chunk of the page has arrived, and then evaluate one after another: React,
 * zod, the contract and the screens take ~100-300 ms on two cores before main.tsx's own body
 * runs. page-start.ts (evaluated first, in the small `start` chunk) sends the calls the app
 * starts with through the transport at once; when the app makes the same call (same channel,
 * same input) it takes that answer instead of sending another. Main answers while the page
 * evaluates the rest.
 *
 * No validation is skipped: what is handed over is the transport's raw answer, which the
 * bridge client checks as it checks any other (bridge-client.ts).
 */

/** A call as the app makes it: the channel and its input. */
export type FirstCall = readonly [channel: string, input: unknown]

export interface FirstCalls {
  /** What the bridge uses: a call sent ahead takes its answer (once), any other is sent. */
  transport: BridgeTransport
  /**
   * The app has made its first calls: no later call takes an answer sent ahead (it might be
   * stale by then), and those no call took are dropped.
   */
  close(): void
}

/**
 * The calls startApp (app/App.tsx) makes for a page opened on `route`, in its order: the
 * Overview's summary when it opens there (the screen's preload), the app's own (app.info and
 * profiles.list, then the settings). A call missing here is simply sent when the app makes it.
 */
export function firstCallsFor(route: string): FirstCall[] {
  return [
    ...(route === 'overview' ? [['overview.summary', {}] as const] : []),
    ['app.info', {}],
    ['profiles.list', {}],
    ['settings.get', {}],
  ]
}

function keyOf(channel: string, input: unknown): string {
  return `${channel} ${JSON.stringify(input ?? {})}`
}

export function sendFirstCalls(
  transport: BridgeTransport,
  calls: readonly FirstCall[],
): FirstCalls {
  let ahead: Map<string, Promise<unknown>> | null = new Map()
  for (const [channel, input] of calls) {
    const answer = transport.invoke(channel, input)
    // A failed call is reported to the app's call that takes it; one none takes is not an
    // unhandled rejection.
    answer.catch(() => undefined)
    ahead.set(keyOf(channel, input), answer)
  }
  return {
    transport: {
      invoke(channel, input) {
        const key = keyOf(channel, input)
        const answer = ahead?.get(key)
        if (answer === undefined) return transport.invoke(channel, input)
        ahead?.delete(key)
        return answer
      },
      subscribe: (listener) => transport.subscribe(listener),
    },
    close() {
      ahead = null
    },
  }
}
