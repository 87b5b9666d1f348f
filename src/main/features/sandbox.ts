import { APP_ERROR_CODES, PROFILE_COLORS } from '../../shared/bridge'
import type { Profile } from '../../shared/bridge'
import { isServiceError, ServiceError } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { StoredProfile } from '../profiles'
import type { DeskContext } from './context'
import { profileView, verifyToken } from './context'
import { portOf } from './embedded-sandbox'
import { isKeychainUnavailable } from './profiles'

/*
 * "Explore the local sandbox": the embedded sandbox, started in a process of its own, and the single
 * profile of kind 'sandbox' that talks to it with its admin token. The token is kept through
 * the vault like any other, so when the app restarts the sandbox is started again with that
 * same token and the stored sign-in stays valid.
 */

export const SANDBOX_PROFILE_NAME = 'Local sandbox'
const SANDBOX_COLOR = PROFILE_COLORS[4]

export function sandboxProfileOf(context: DeskContext): StoredProfile | undefined {
  return context.profiles.list().find((profile) => profile.kind === 'sandbox')
}

export function sandboxHandlers(
  context: DeskContext,
  options: { sandboxPort?: number },
): Pick<BridgeHandlers, 'sandbox.explore' | 'sandbox.seed'> {
  return {
    async 'sandbox.explore'(): Promise<Profile> {
      await context.sandbox.settled()
      const existing = sandboxProfileOf(context)
      const preferredPort = options.sandboxPort ?? (existing ? portOf(existing.baseUrl) : undefined)
      const running = await context.sandbox.start({
        ...(preferredPort === undefined ? {} : { port: preferredPort }),
      })
      const admin = running.tokens.admin
      context.secrets.remember(admin)
      try {
        await verifyToken(context, running.url, admin)
      } catch (error) {
        if (!(isServiceError(error) && error.code === 'UNAUTHORIZED')) throw error
        // The admin token was logged out (op 2 ends it). It is brought back alone: a reset to
        // the seed would also wipe what the user uploaded, moved or resolved.
        await running.reinstateAdmin()
        await verifyToken(context, running.url, admin)
      }

      let profile =
        existing ??
        context.profiles.add({
          name: SANDBOX_PROFILE_NAME,
          baseUrl: running.url,
          color: SANDBOX_COLOR,
          protected: false,
          kind: 'sandbox',
        })
      if (profile.baseUrl !== running.url) {
        profile = context.profiles.update(profile.id, { baseUrl: running.url })
      }
      try {
        await context.vault.set(profile.id, admin, { sessionOnly: false })
      } catch (error) {
        // The sandbox's token is worth nothing outside this run of the sandbox, so keeping it
        // in memory when no keychain is usable loses nothing.
        if (!isKeychainUnavailable(error)) throw error
        await context.vault.set(profile.id, admin, { sessionOnly: true })
      }
      context.connectivity.reachable(profile.id)
      context.profiles.setActive(profile.id)
      context.events.emit('profiles.changed', {})
      return profileView(context, profile)
    },

    async 'sandbox.seed'() {
      await context.sandbox.settled()
      const running = context.sandbox.current()
      if (!running) {
        throw new ServiceError(
          APP_ERROR_CODES.OFFLINE,
          'The local sandbox is not running: choose "Explore the local sandbox" to start it',
        )
      }
      return { ...(await running.seed()) }
    },
  }
}

/**
 * At start: when a sandbox profile has a stored token, start the sandbox again with that very
 * token, on the port its base URL names if it is free (else any port, and the URL is updated).
 * Runs in the background; calls for the sandbox profile wait for it (EmbeddedSandbox.settled).
 */
export async function restoreSandbox(
  context: DeskContext,
  options: { sandboxPort?: number },
): Promise<void> {
  const profile = sandboxProfileOf(context)
  if (!profile) return
  const token = await context.vault.get(profile.id)
  // Signed out: nothing to keep valid; "Explore" starts the sandbox when asked.
  if (token === null) return
  context.secrets.remember(token)
  const port = portOf(profile.baseUrl) ?? options.sandboxPort
  try {
    const running = await context.sandbox.start({
      adminToken: token,
      ...(port === undefined ? {} : { port }),
    })
    if (running.url !== profile.baseUrl) {
      context.profiles.update(profile.id, { baseUrl: running.url })
      context.events.emit('profiles.changed', {})
    }
  } catch (error) {
    const notice = {
      id: `sandbox-restart-${Date.now()}`,
      level: 'warning' as const,
      message: `The local sandbox could not be started again (${describe(error)}); its profile shows the last cached data.`,
    }
    context.notices.push(notice)
    context.events.emit('notice', notice)
  }
}

function describe(error: unknown): string {
  if (isServiceError(error)) return error.message
  // The sandbox's start errors are one-line and hold no token (SandboxStartError).
  return error instanceof Error && error.name === 'SandboxStartError'
    ? error.message
    : 'unexpected error'
}
