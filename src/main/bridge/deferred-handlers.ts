import { CHANNEL_NAMES } from '../../shared/bridge'
import type { ChannelName } from '../../shared/bridge'
import type { BridgeHandlers, HandlerInput } from './dispatcher'

/** The channels of a contract group (src/shared/bridge/channels/*.ts), as its keys. */
type GroupChannel<G> = keyof G & ChannelName

/**
 * A feature's handlers, built on the first call to any of its channels: its modules (and what
 * they import) load off the path to the app's first answers, at the first call that needs them.
 * The stand-ins are the contract group's own channels (`group`: the object the contract spreads
 * in), so a channel added to the group gets one; `answeredElsewhere` names those of the group
 * another feature answers (the desk refuses to open when none does: assertEveryChannelHandled).
 * For features whose handlers carry no `json` writer (dispatcher.ts): the stand-ins have none.
 * A build that fails is tried again at the next call, each call reporting it.
 */
export function deferredHandlers<G extends object, E extends GroupChannel<G> = never>(
  group: G,
  build: () => Promise<Pick<BridgeHandlers, Exclude<GroupChannel<G>, E>>>,
  answeredElsewhere: readonly E[] = [],
): Pick<BridgeHandlers, Exclude<GroupChannel<G>, E>> {
  type C = Exclude<GroupChannel<G>, E>
  const handlers = builtOnFirstCall(build)
  const elsewhere: ReadonlySet<string> = new Set(answeredElsewhere)
  const names = (Object.keys(group) as C[]).filter((name) => !elsewhere.has(name))
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

/**
 * `build` run at the first call and its answer shared by every later one; a build that failed
 * is run again at the next call (a module that could not load may load then).
 */
export function builtOnFirstCall<T>(build: () => Promise<T>): () => Promise<T> {
  let built: Promise<T> | null = null
  return () =>
    (built ??= build().catch((error: unknown) => {
      built = null
      throw error
    }))
}

/**
 * Throws, naming them, when channels of the contract have no handler. The compiler checks the
 * desk's map (BridgeHandlers), but not through the casts above: a channel left out of a group's
 * stand-ins (or put in `answeredElsewhere` with nobody answering it) would only fail at its call.
 */
export function assertEveryChannelHandled(handlers: Partial<BridgeHandlers>): void {
  const unhandled = CHANNEL_NAMES.filter((name) => typeof handlers[name] !== 'function')
  if (unhandled.length > 0) throw new Error(`No handler for ${unhandled.join(', ')}`)
}
