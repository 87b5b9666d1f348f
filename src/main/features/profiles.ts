import { X509Certificate } from 'node:crypto'
import type { z } from 'zod'
import type { Profile, ProfileNetworkView, proxyInputSchema } from '../../shared/bridge'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { isServiceError, ServiceError } from '../api'
import { parseProxyUrl, readCaCertificates, systemTrustSummary, viewOf } from '../net'
import type { ProfileNetwork, ProxyChoice } from '../net'
import type { StoredProfile } from '../profiles'
import type { ProxyLogin } from '../vault'
import type { DeskContext } from './context'
import type { TokenCheck } from './context'
import {
  isConnectivityError,
  networkOf,
  profileView,
  requireProfile,
  signedInToken,
  verifyToken,
  withProfileClient,
} from './context'

/*
 * Profiles: several service environments side by side. Adding one, or signing in again, first
 * verifies the token with the service; nothing is saved when that fails, and a token that
 * cannot go to the keychain is refused with KEYCHAIN_UNAVAILABLE (reason and fix in the message)
 * so the UI can offer "keep for this session only".
 */

type ProfileChannels =
  | 'profiles.list'
  | 'profiles.add'
  | 'profiles.connect'
  | 'connectivity.check'
  | 'profiles.update'
  | 'profiles.remove'
  | 'profiles.activate'
  | 'profiles.signIn'
  | 'profiles.network'
  | 'profiles.inspectCa'

export function profileHandlers(context: DeskContext): Pick<BridgeHandlers, ProfileChannels> {
  const changed = () => context.events.emit('profiles.changed', {})
  checkLaterWhenReachable(context)

  return {
    async 'profiles.list'() {
      const stored = context.profiles.list()
      const profiles = await Promise.all(stored.map((profile) => profileView(context, profile)))
      return {
        profiles,
        activeId: context.profiles.activeId(),
        connectivity: context.connectivity.all(),
      }
    },

    async 'profiles.add'(input) {
      const { token, sessionOnly, trustedCas, proxy, checkLater, ...fields } = input
      const network = await networkInput(context, null, { trustedCas, proxy })
      // Checked over the connection the profile will use: its proxy, its CAs.
      const outcome = await verifyToken(context, fields.baseUrl, token, network.settings).then(
        (check) => ({ check, unreachable: null }),
        (error: unknown) => {
          // "Save anyway, check later": only a service out of reach, never a refusal.
          if (!checkLater || !isConnectivityError(error)) throw error
          return { check: null, unreachable: error }
        },
      )
      const profile = context.profiles.add({
        ...fields,
        kind: 'service',
        ...network.stored,
        ...(outcome.check === null ? { verified: false } : {}),
      })
      try {
        await context.vault.set(profile.id, token, { sessionOnly })
        if (network.login !== undefined) {
          await context.vault.setProxyCredentials(profile.id, network.login)
        }
      } catch (error) {
        // The token or proxy login could not be kept: the profile is not kept either.
        await context.vault.delete(profile.id).catch(() => undefined)
        context.profiles.remove(profile.id)
        throw error
      }
      // What the check's call found is the first thing known of the profile's service.
      if (outcome.unreachable === null) context.connectivity.reachable(profile.id)
      else context.connectivity.unreachable(profile.id, outcome.unreachable)
      // The environment the user just connected to is the one they want to see.
      context.profiles.setActive(profile.id)
      changed()
      return {
        ...(await profileView(context, profile)),
        tokenLimitation: outcome.check?.limitation ?? null,
      }
    },

    'profiles.connect': ({ id }) => connectProfile(context, id),

    async 'connectivity.check'({ profileIds }) {
      const known = new Set(context.profiles.list().map((profile) => profile.id))
      const targets = (profileIds ?? [...known]).filter((id) => known.has(id))
      // Each call's finding is recorded by the tracker; a failure is one of those findings.
      await Promise.all(targets.map((id) => probe(context, id).catch(() => undefined)))
      return { connectivity: context.connectivity.all() }
    },

    async 'profiles.update'(input) {
      const { id, trustedCas, proxy, ...patch } = input
      const before = requireProfile(context, id)
      const network = await networkInput(context, before, { trustedCas, proxy })
      // The login first: a keychain that refuses it leaves the profile as it was.
      if (network.login !== undefined) await context.vault.setProxyCredentials(id, network.login)
      const updated = context.profiles.update(id, { ...patch, ...network.stored })
      // Another route to the service: what was last seen of it says nothing now.
      if (trustedCas !== undefined || proxy !== undefined) context.connectivity.forget(id)
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
      await context.vault.setProxyCredentials(id, null).catch(() => undefined)
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
      // Over the profile's own route (its proxy, its CAs), as every call of it goes.
      const network = await networkOf(context, profile)
      const check = await verifyToken(context, profile.baseUrl, token, network)
      await context.vault.set(id, token, { sessionOnly })
      context.connectivity.reachable(id)
      changed()
      return { ...(await profileView(context, profile)), tokenLimitation: check.limitation }
    },

    async 'profiles.network'({ id }) {
      return networkView(context, requireProfile(context, id))
    },

    async 'profiles.inspectCa'({ pem }) {
      return { certificates: readCaCertificates(pem, 'pem') }
    },
  }
}

/**
 * Checks the profile's stored token with the service now, over its own route, as adding it
 * does: the Connect of a profile saved unchecked. Success verifies it; an unreachable service is
 * recorded as such; a refused token signs the profile out and asks for a new one (as any call
 * refused with 401 does).
 */
export async function connectProfile(
  context: DeskContext,
  id: string,
): Promise<Profile & { tokenLimitation: string | null }> {
  const profile = requireProfile(context, id)
  const token = await signedInToken(context, profile)
  let check: TokenCheck
  try {
    check = await verifyToken(context, profile.baseUrl, token, await networkOf(context, profile))
  } catch (error) {
    if (isConnectivityError(error)) context.connectivity.unreachable(id, error)
    else if (isServiceError(error) && error.code === 'UNAUTHORIZED') {
      await context.vault.delete(id).catch(() => undefined)
      context.connectivity.reachable(id)
      context.events.emit('profiles.changed', {})
      context.events.emit('auth.required', {
        profileId: id,
        message: `The service refused the access token of "${profile.name}" (401): enter a new token to continue`,
      })
    }
    throw error
  }
  context.connectivity.reachable(id)
  let current = requireProfile(context, id)
  if (current.verified === false) {
    current = context.profiles.update(id, { verified: true })
    context.events.emit('profiles.changed', {})
  }
  return { ...(await profileView(context, current)), tokenLimitation: check.limitation }
}

/**
 * One call to the profile's service, for what it finds (the tracker records it): a profile
 * saved unchecked is connected (its token checked); another asks for its sessions, as the token
 * check does, every row read and none kept. A 403 there (a real deployment keeps op 1 for
 * browser sessions) is the service answering. Signed out: nothing to ask with.
 */
async function probe(context: DeskContext, id: string): Promise<void> {
  const profile = requireProfile(context, id)
  if ((await context.vault.get(id)) === null) return
  if (profile.verified === false) {
    await connectProfile(context, id)
    return
  }
  await withProfileClient(context, id, (client) =>
    client.callRows('listSessions', { begin: () => undefined, row: () => undefined }),
  )
}

/**
 * "Check later", done: when any call finds the service of a profile saved unchecked reachable
 * again (a background refresh, a screen's read), its token is checked at once, once at a time.
 */
function checkLaterWhenReachable(context: DeskContext): void {
  const connecting = new Set<string>()
  const stop = context.events.subscribe((event, payload) => {
    if (event !== 'connectivity.changed') return
    const { profileId, online } = payload as { profileId: string; online: boolean }
    if (!online || connecting.has(profileId)) return
    if (context.profiles.get(profileId)?.verified !== false) return
    connecting.add(profileId)
    void connectProfile(context, profileId)
      .catch(() => undefined)
      .finally(() => connecting.delete(profileId))
  })
  context.onClose(stop)
}

type ProxyInput = z.output<typeof proxyInputSchema>

interface NetworkChange {
  /** The fields profiles.json gets (only those given). */
  stored: Pick<StoredProfile, 'trustedCas' | 'proxy'>
  /** The keychain's proxy login: a new one, null to forget it, undefined to leave it. */
  login: ProxyLogin | null | undefined
  /** How the profile connects once the change is made (for verification). */
  settings: ProfileNetwork
}

/**
 * Checks and shapes the network fields of an add or update: every CA certificate read and
 * CA:true (one entry per certificate, duplicates dropped), the proxy URL usable. A password left
 * out keeps the stored one; an empty user name forgets the login.
 */
async function networkInput(
  context: DeskContext,
  before: StoredProfile | null,
  input: { trustedCas?: string[] | undefined; proxy?: ProxyInput | undefined },
): Promise<NetworkChange> {
  const stored: NetworkChange['stored'] = {}
  if (input.trustedCas !== undefined) {
    const pems = input.trustedCas.flatMap((pem) => readCaCertificates(pem).map((ca) => ca.pem))
    stored.trustedCas = [...new Set(pems)]
  }
  let login: NetworkChange['login']
  if (input.proxy !== undefined) {
    const { choice, login: newLogin } = await proxyChange(context, before, input.proxy)
    stored.proxy = choice
    login = newLogin
  }
  const current = before === null ? null : await networkOf(context, before)
  const proxy: ProxyChoice = stored.proxy ?? current?.proxy ?? { mode: 'system' }
  const settings: ProfileNetwork = {
    proxy,
    proxyCredentials: login !== undefined ? login : (current?.proxyCredentials ?? null),
    trustedCas: stored.trustedCas ?? current?.trustedCas ?? [],
  }
  return { stored, login, settings }
}

async function proxyChange(
  context: DeskContext,
  before: StoredProfile | null,
  input: ProxyInput,
): Promise<{ choice: ProxyChoice; login: ProxyLogin | null | undefined }> {
  // Only a profile that had its own proxy can have a login to forget; asking the keychain to
  // forget one that never was fails where there is no keychain (a session-only profile).
  const forget = before?.proxy?.mode === 'custom' ? null : undefined
  if (input.mode !== 'custom') return { choice: { mode: input.mode }, login: forget }
  try {
    parseProxyUrl(input.url, "profile's proxy setting")
  } catch (error) {
    throw fieldError('proxy', error instanceof Error ? error.message : 'Not a usable proxy')
  }
  if (input.username === '') return { choice: { mode: 'custom', url: input.url }, login: forget }
  const kept = before === null ? null : await context.vault.getProxyCredentials(before.id)
  const password = input.password ?? kept?.password ?? ''
  return {
    choice: { mode: 'custom', url: input.url },
    login: { username: input.username, password },
  }
}

function fieldError(path: string, message: string) {
  return new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
    details: [{ path: [path], message }],
  })
}

async function networkView(
  context: DeskContext,
  profile: StoredProfile,
): Promise<ProfileNetworkView> {
  const trustedCas = (profile.trustedCas ?? []).map((pem) => viewOf(new X509Certificate(pem)))
  const systemCas = systemTrustSummary()
  const proxy = profile.proxy ?? { mode: 'system' as const }
  if (proxy.mode !== 'custom') return { trustedCas, systemCas, proxy }
  const login = await context.vault.getProxyCredentials(profile.id)
  return {
    trustedCas,
    systemCas,
    proxy: {
      mode: 'custom',
      url: proxy.url,
      username: login?.username ?? '',
      hasPassword: (login?.password ?? '') !== '',
    },
  }
}

/** True when the vault refused to keep a token because no keychain is usable. */
export function isKeychainUnavailable(error: unknown): boolean {
  return isServiceError(error) && error.code === 'KEYCHAIN_UNAVAILABLE'
}
