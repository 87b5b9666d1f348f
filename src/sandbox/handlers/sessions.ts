import type { OperationHandler } from '../context'
import { json } from '../http'

/** To epoch seconds, the variant's session time unit (docs/SERVICE.md, "Session timestamps"). */
function toSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}

/**
 * Op 1: the caller's user's live browser sessions, newest activity first, theirs marked.
 * Timestamps are epoch milliseconds; the variant sends epoch seconds.
 */
const listSessions: OperationHandler<'listSessions'> = ({ core, caller }) => {
  const time = core.variant ? toSeconds : (ms: number) => ms
  const sessions = core.state.sessions
    .filter((session) => session.userId === caller.user.id && session.endedAt === null)
    .sort((a, b) => b.lastSeenAt - a.lastSeenAt)
    .map((session) => ({
      id: session.id,
      authMethod: session.authMethod,
      createdAt: time(session.createdAt),
      lastSeenAt: time(session.lastSeenAt),
      expiresAt: time(session.expiresAt),
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      mfaSatisfiedAt: session.mfaSatisfiedAt === null ? null : time(session.mfaSatisfiedAt),
      isCurrent: session.id === caller.session.id,
    }))
  // A bare array: op 1 is one of the envelope's exceptions (the spec's 2.1).
  return json(sessions)
}

/** The identity provider's end-session page; example.com is reserved, so it is harmless to open. */
const LOGOUT_URL = 'https://login.example.com/oidc/logout?client_id=infradesk-sandbox'

/** Op 2: ends the caller's session; its token is refused from now on. */
const logout: OperationHandler<'logout'> = ({ core, caller }) => {
  caller.session.endedAt = core.now().getTime()
  caller.token.revoked = true
  return json({ message: 'Logged out', logoutUrl: LOGOUT_URL })
}

export const sessionHandlers = { listSessions, logout }
