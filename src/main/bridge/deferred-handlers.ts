import type { ChannelName } from '../../shared/bridge'
import type { BridgeHandlers, HandlerInput } from './dispatcher'

/**
 * A feature's handlers, built on the first call to any of its channels: its modules (and what
 * they import) load off the path to the app's first answers, at the first call that needs them.
 * For features whose handlers carry no `json` writer (dispatcher.ts): the stand-ins have none.
 * A build that fails is tried again at the next call, each call reporting it.
 */
export function deferredHandlers<C extends ChannelName>(
  names: readonly C[],
  build: () => Promise<Pick<BridgeHandlers, C>>,
): Pick<BridgeHandlers, C> {
  let built: Promise<Pick<BridgeHandlers, C>> | null = null
  const handlers = () =>
    (built ??= build().catch((error: unknown) => {
      built = null
      throw error
    }))
  const standIns = names.map((name) => {
    const standIn = async (input: HandlerInput<typeof name>) => {
      const handler = (await handlers())[name] as (input: HandlerInput<C>) => Promise<unknown>
      return handler(input)
    }
    return [name, standIn] as const
  })
  // Each stand-in forwards to the handler of its own channel, so its input and answer are that
  // channel's: the compiler cannot follow that through a mapped list, hence the cast.
  return Object.fromEntries(standIns) as unknown as Pick<BridgeHandlers, C>
}
