import type { BridgeHandlers } from '../bridge/dispatcher'
import { isServiceError } from '../api'
import type { DeskContext } from './context'
import { profileView, requireProfile, verifyToken } from './context'

/*
 * Profiles: several service environments side by side. Adding one, or signing in again, first
 * verifies the token with the service; nothing is saved when that fails, and a token that
 * cannot go to the keychain is refused with KEYCHAIN_UNAVAILABLE (reason and fix in the message)
 * so the UI can offer "keep for this session only".
 */

type ProfileChannels =
  | 'profiles.list'
  | 'profiles.add'
  | 'profiles.update'
  | 'profiles.remove'
  | 'profiles.activate'
  | 'profiles.signIn'

export function profileHandlers(context: DeskContext): Pick<BridgeHandlers, ProfileChannels> {
  const changed = () => context.events.emit('profiles.changed', {})

  return {
    async 'profiles.list'() {
      const stored = context.profiles.list()
      const profiles = await Promise.all(stored.map((profile) => profileView(context, profile)))
      return { profiles, activeId: context.profiles.activeId() }
    },

    async 'profiles.add'(input) {
      const { token, sessionOnly, ...fields } = input
      await verifyToken(context, fields.baseUrl, token)
      const profile = context.profiles.add({ ...fields, kind: 'service' })
      try {
        await context.vault.set(profile.id, token, { sessionOnly })
      } catch (error) {
        // The token could not be kept: the profile is not kept either.
        context.profiles.remove(profile.id)
        throw error
      }
      // The environment the user just connected to is the one they want to see.
      context.profiles.setActive(profile.id)
      changed()
      return profileView(context, profile)
    },

    async 'profiles.update'(input) {
      const { id, ...patch } = input
      const before = requireProfile(context, id)
      const updated = context.profiles.update(id, patch)
      if (patch.baseUrl !== undefined && updated.baseUrl !== before.baseUrl) {
        // Another service's lists are not this one's: they must not show under the new URL.
        context.cache.clearProfile(id)
        context.connectivity.forget(id)
      }
      changed()
      return profileView(context, updated)
    },

    async 'profiles.remove'({ id }) {
      const profile = requireProfile(context, id)
      await context.vault.delete(id)
      if (profile.kind === 'sandbox') await context.sandbox.stop()
      context.cache.clearProfile(id)
      context.connectivity.forget(id)
      const wasActive = context.profiles.activeId() === id
      context.profiles.remove(id)
      if (wasActive) context.profiles.setActive(context.profiles.list()[0]?.id ?? null)
      changed()
      return null
    },

    async 'profiles.activate'({ id }) {
      const profile = requireProfile(context, id)
      context.profiles.setActive(id)
      changed()
      return profileView(context, profile)
    },

    async 'profiles.signIn'({ id, token, sessionOnly }) {
      const profile = requireProfile(context, id)
      if (profile.kind === 'sandbox') await context.sandbox.settled()
      await verifyToken(context, profile.baseUrl, token)
      await context.vault.set(id, token, { sessionOnly })
      context.connectivity.reachable(id)
      changed()
      return profileView(context, profile)
    },
  }
}

/** True when the vault refused to keep a token because no keychain is usable. */
export function isKeychainUnavailable(error: unknown): boolean {
  return isServiceError(error) && error.code === 'KEYCHAIN_UNAVAILABLE'
}
