import { sessionSchema } from '../../shared/api'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { isServiceError } from '../api'
import { browserOnlyWords } from '../api/refusal'
import type { Session } from '../../shared/api'
import type { BridgeError, ChannelOutput } from '../../shared/bridge'
import { answersAsJson, OK_RESULT_OPENING, OkResultJson } from '../bridge/dispatcher'
import type { BridgeHandlers } from '../bridge/dispatcher'
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

export function sessionHandlers(
  context: DeskContext,
): Pick<
  BridgeHandlers,
  'sessions.cached' | 'sessions.refresh' | 'sessions.logout' | 'sessions.window' | 'sessions.fetch'
> {
  /**
   * The whole cached list as the JSON of `sessions.cached`'s ok Result, written whole in the
   * list worker (its rows read, checked and written there: 10 MB and more), sent as it is.
   */
  async function cachedListResult(profileId: string, error: BridgeError | null) {
    // `,"offline":…,"error":…}}`: the fields after the rows and `fetchedAt`, and the envelope's end.
    const rest = JSON.stringify({
      offline: error !== null || context.connectivity.offline(profileId),
      error: error ?? context.connectivity.lastError(profileId),
    }).slice(1)
    const { json } = await cachedListJsonOf(context, profileId, 'sessions', 'listSessions', {
      opening: `${OK_RESULT_OPENING}{"items":`,
      closing: `,${rest}}`,
    })
    return new OkResultJson(json)
  }

  /** The same answer as objects, for callers in this process (the CLI, tests). */
  async function cachedList(profileId: string, error: BridgeError | null): Promise<SessionList> {
    const { bytes } = await cachedListResult(profileId, error)
    return (JSON.parse(bytes.toString('utf8')) as { value: SessionList }).value
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
        return cachedListResult(profileId, null)
      },
    ),

    /** The whole list (for scripts and tests); the screen reads windows (sessions.fetch). */
    'sessions.refresh': answersAsJson(
      async ({ profileId }) => cachedList(profileId, await refreshIntoCache(profileId)),
      async ({ profileId }) => cachedListResult(profileId, await refreshIntoCache(profileId)),
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
      let answer: { message: string; logoutUrl?: string | undefined }
      try {
        answer = await recordedCall(context, profileId, 'logout', {
          input: {},
          target: currentSessionId(context, profileId),
          describe: (answered) => answered.message,
        })
      } catch (error) {
        if (!isBrowserSessionOnly(error)) throw error
        // An API token has no browser session to end: the user still asked to sign out here,
        // so the token is forgotten, and the answer says it stays valid on the service.
        await context.vault.delete(profileId)
        context.events.emit('profiles.changed', {})
        return {
          message: `${browserOnlyWords('logout')} ${TOKEN_STAYS_VALID}`,
          logoutUrl: null,
          logoutUrlTrusted: false,
          openedLogoutUrl: false,
          endedOnService: false,
        }
      }
      // The session is over on the service: the token is worthless now, so it goes.
      await context.vault.delete(profileId)
      context.events.emit('profiles.changed', {})

      // Ends the single sign-on session in the browser too, but only on the profile's own site
      // over https (logout-url.ts); any other address is handed back to be shown as text.
      const offered = answer.logoutUrl ?? null
      // logout-url.ts reads the Public Suffix List (tldts: ~20 ms to load), needed only here.
      const toOpen =
        offered === null
          ? null
          : (await import('./logout-url')).logoutUrlToOpen(offered, profile.baseUrl)
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
        endedOnService: true,
      }
    },
  }
}

const TOKEN_STAYS_VALID =
  'Infradesk signed this profile out and forgot its token; the token itself stays valid on the service until it is revoked in the web console.'

/** The service refused the call because it keeps it for browser sessions (client refusal.ts). */
export function isBrowserSessionOnly(error: unknown): boolean {
  return isServiceError(error) && error.code === APP_ERROR_CODES.BROWSER_SESSION_ONLY
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
