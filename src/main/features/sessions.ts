import { sessionSchema } from '../../shared/api'
import type { Session } from '../../shared/api'
import type { BridgeError, ChannelOutput } from '../../shared/bridge'
import { answersAsJson } from '../bridge/dispatcher'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { logoutUrlToOpen } from './logout-url'
import type { DeskContext } from './context'
import { cachedListJsonOf, fetchIntoCache, fetchWindow, readWindow } from './lists'
import { bridgeErrorOf, isConnectivityError, requireProfile } from './context'
import { recordedCall } from './recorded'

/*
 * The sessions screen (ops 1 and 2). The list is cached per profile in SQLite: `cached` answers
 * at once from there, `refresh` asks the service and stores what it says; when the service is
 * unreachable the cached list is returned with offline: true, so the screen keeps showing it.
 */

type SessionList = ChannelOutput<'sessions.cached'>

/** `{"items":`: the start of the cached list written as JSON. */
const ITEMS_OPENING = Buffer.from('{"items":')
const EMPTY_ARRAY = Buffer.from('[]')

export function sessionHandlers(
  context: DeskContext,
): Pick<
  BridgeHandlers,
  'sessions.cached' | 'sessions.refresh' | 'sessions.logout' | 'sessions.window' | 'sessions.fetch'
> {
  /**
   * The whole cached list as the JSON of `sessions.cached`'s answer: its rows read, checked and
   * written as JSON in the list worker (10 MB and more), spliced here without being parsed.
   */
  async function cachedListJson(profileId: string, error: BridgeError | null): Promise<Buffer> {
    const cached = await cachedListJsonOf(context, profileId, 'sessions', 'listSessions')
    // `{"fetchedAt":…}` without its `{`: the fields after the rows.
    const rest = JSON.stringify({
      fetchedAt: cached?.fetchedAt ?? null,
      offline: error !== null || context.connectivity.offline(profileId),
      error: error ?? context.connectivity.lastError(profileId),
    }).slice(1)
    return Buffer.concat([ITEMS_OPENING, cached?.json ?? EMPTY_ARRAY, Buffer.from(`,${rest}`)])
  }

  /** The same answer as objects, for callers in this process (the CLI, tests). */
  async function cachedList(profileId: string, error: BridgeError | null): Promise<SessionList> {
    return JSON.parse((await cachedListJson(profileId, error)).toString('utf8')) as SessionList
  }

  /** Fetches the list into the cache; offline, the error to answer the cached list with. */
  async function refreshIntoCache(profileId: string): Promise<BridgeError | null> {
    try {
      // The cache emits cache.changed after the write; open views refetch on it.
      await fetchIntoCache(context, profileId, 'sessions', 'listSessions')
      return null
    } catch (error) {
      if (!isConnectivityError(error)) throw error
      return bridgeErrorOf(context, error)
    }
  }

  return {
    'sessions.cached': answersAsJson(
      async ({ profileId }) => {
        requireProfile(context, profileId)
        return cachedList(profileId, null)
      },
      async ({ profileId }) => {
        requireProfile(context, profileId)
        return cachedListJson(profileId, null)
      },
    ),

    /** The whole list (for scripts and tests); the screen reads windows (sessions.fetch). */
    'sessions.refresh': answersAsJson(
      async ({ profileId }) => cachedList(profileId, await refreshIntoCache(profileId)),
      async ({ profileId }) => cachedListJson(profileId, await refreshIntoCache(profileId)),
    ),

    async 'sessions.window'(input) {
      requireProfile(context, input.profileId)
      return readWindow(context, 'sessions', sessionSchema, input, { error: null })
    },

    async 'sessions.fetch'(input) {
      return fetchWindow<Session>(context, 'sessions', 'listSessions', input)
    },

    async 'sessions.logout'({ profileId }) {
      const profile = requireProfile(context, profileId)
      const answer = await recordedCall(context, profileId, 'logout', {
        input: {},
        target: currentSessionId(context, profileId),
        describe: (answered) => answered.message,
      })
      // The session is over on the service: the token is worthless now, so it goes.
      await context.vault.delete(profileId)
      context.events.emit('profiles.changed', {})

      // Ends the single sign-on session in the browser too, but only on the profile's own site
      // over https (logout-url.ts); any other address is handed back to be shown as text.
      const offered = answer.logoutUrl ?? null
      const toOpen = offered === null ? null : logoutUrlToOpen(offered, profile.baseUrl)
      let openedLogoutUrl = false
      if (toOpen !== null) {
        // electronegativity: OPEN_EXTERNAL_JS_CHECK — https and the profile's site checked above.
        openedLogoutUrl = await context.openExternal(toOpen).then(
          () => true,
          () => false,
        )
      }
      return {
        message: answer.message,
        logoutUrl: toOpen ?? offered,
        logoutUrlTrusted: toOpen !== null,
        openedLogoutUrl,
      }
    },
  }
}

function readSession(item: unknown): Session[] {
  const parsed = sessionSchema.safeParse(item)
  return parsed.success ? [parsed.data] : []
}

/** The id of the session being ended, from the last list we saw, for the activity log. */
function currentSessionId(context: DeskContext, profileId: string): string | null {
  const current = readSession(context.cache.findListItem(profileId, 'sessions', 'isCurrent', true))
  return current[0]?.id ?? null
}
