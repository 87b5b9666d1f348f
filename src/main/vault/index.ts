import { randomUUID } from 'node:crypto'
import type { TokenStorage, VaultStatus } from '../../shared/bridge'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from '../api/errors'
import { explainKeychainError, loadKeytar } from './keychain'
import type { KeychainProblem, KeytarLike } from './keychain'

export type { KeytarLike, KeychainProblem } from './keychain'
export { explainKeychainError } from './keychain'

/*
 * A profile's own proxy login (Basic) is a second keychain item per profile, account
 * `<profile id>/proxy`, holding `{"username","password"}`: like the token, never in a file.
 *
 * Where access tokens live: the OS keychain (service "Infradesk", account = profile id), or,
 * when the user chooses "keep for this session only", this process's memory. There is no third
 * place: never a file, never SQLite, and no "fallback" encryption with a machine-derived key.
 */

export interface TokenVault {
  /** Whether the keychain can store a token right now; if not, why and how to fix it. */
  status(): Promise<VaultStatus>
  /** The token (session memory first, then the keychain); null when none or unreadable. */
  get(profileId: string): Promise<string | null>
  /**
   * Keeps a token. Without `sessionOnly` it goes to the keychain, or throws a ServiceError
   * KEYCHAIN_UNAVAILABLE (details: { reason, fix }) so the UI can offer "session only".
   */
  set(profileId: string, token: string, options?: { sessionOnly?: boolean }): Promise<TokenStorage>
  /** Forgets the token everywhere. Throws KEYCHAIN_UNAVAILABLE only if a stored copy remains. */
  delete(profileId: string): Promise<void>
  /** 'session' when held in memory, 'keychain' when known to be in the keychain, else null. */
  storageOf(profileId: string): TokenStorage | null
  /** The profile's proxy login; null when none or the keychain cannot be read. */
  getProxyCredentials(profileId: string): Promise<ProxyLogin | null>
  /**
   * Keeps (or, with null, forgets) the profile's proxy login in the keychain. Throws
   * KEYCHAIN_UNAVAILABLE when it cannot be kept; a login is never held anywhere else.
   */
  setProxyCredentials(profileId: string, login: ProxyLogin | null): Promise<void>
}

export interface ProxyLogin {
  username: string
  password: string
}

/** The keychain account of a profile's proxy login (profile ids are UUIDs: no clash). */
function proxyAccount(profileId: string): string {
  return `${profileId}/proxy`
}

export interface VaultOptions {
  /** The keychain service name. Default 'Infradesk'; tests use their own. */
  service?: string
  /** Stands in for keytar (another platform's keychain); keytar is loaded lazily otherwise. */
  backend?: KeytarLike
  /** How long a keychain call may take (a locked keychain may wait on a prompt). Default 10 s. */
  timeoutMs?: number
}

export const DEFAULT_VAULT_SERVICE = 'Infradesk'
const DEFAULT_TIMEOUT_MS = 10_000
/** The account `status()` writes and deletes again to learn whether writes work. */
const PROBE_ACCOUNT = '__infradesk_probe__'

/** A keychain call that failed, with the user-facing explanation attached. */
class KeychainFailure extends Error {
  constructor(readonly problem: KeychainProblem) {
    super(problem.reason)
  }
}

export function createVault(options: VaultOptions = {}): TokenVault {
  const service = options.service ?? DEFAULT_VAULT_SERVICE
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const sessionTokens = new Map<string, string>()
  /** Profiles whose token this process has seen in, or put into, the keychain. */
  const keychainProfiles = new Set<string>()
  let backend: KeytarLike | undefined = options.backend

  /** Runs one keychain call; any failure (load, D-Bus, lock, hang) is a KeychainFailure. */
  async function keychain<T>(work: (keytar: KeytarLike) => Promise<T>): Promise<T> {
    try {
      backend ??= loadKeytar()
      return await withTimeout(work(backend), timeoutMs)
    } catch (error) {
      if (error instanceof KeychainFailure) throw error
      throw new KeychainFailure(explainKeychainError(error))
    }
  }

  function unavailable(problem: KeychainProblem): ServiceError {
    return new ServiceError(
      APP_ERROR_CODES.KEYCHAIN_UNAVAILABLE,
      `${problem.reason} ${problem.fix}`,
      {
        details: { reason: problem.reason, fix: problem.fix },
      },
    )
  }

  return {
    async status() {
      try {
        // A read succeeds even on a locked keyring: only a write tells whether tokens can be kept.
        const probe = `probe-${randomUUID()}`
        await keychain((keytar) => keytar.setPassword(service, PROBE_ACCOUNT, probe))
        await keychain((keytar) => keytar.deletePassword(service, PROBE_ACCOUNT))
        return { available: true }
      } catch (error) {
        const problem =
          error instanceof KeychainFailure ? error.problem : explainKeychainError(error)
        return { available: false, reason: problem.reason, fix: problem.fix }
      }
    },

    async get(profileId) {
      const inMemory = sessionTokens.get(profileId)
      if (inMemory !== undefined) return inMemory
      try {
        const stored = await keychain((keytar) => keytar.getPassword(service, profileId))
        if (stored === null || stored === '') {
          keychainProfiles.delete(profileId)
          return null
        }
        keychainProfiles.add(profileId)
        return stored
      } catch {
        // Unreadable keychain: the profile is signed out for now; status() explains why.
        return null
      }
    },

    async set(profileId, token, setOptions = {}) {
      assertAccount(profileId)
      if (typeof token !== 'string' || token.trim() === '') {
        throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
          details: [{ path: ['token'], message: 'Enter an access token' }],
        })
      }
      if (setOptions.sessionOnly) {
        sessionTokens.set(profileId, token)
        // An older keychain copy would come back after a restart: remove it if we can.
        await keychain((keytar) => keytar.deletePassword(service, profileId)).catch(() => false)
        keychainProfiles.delete(profileId)
        return 'session'
      }
      try {
        await keychain((keytar) => keytar.setPassword(service, profileId, token))
      } catch (error) {
        if (error instanceof KeychainFailure) throw unavailable(error.problem)
        throw error
      }
      sessionTokens.delete(profileId)
      keychainProfiles.add(profileId)
      return 'keychain'
    },

    async delete(profileId) {
      sessionTokens.delete(profileId)
      try {
        await keychain((keytar) => keytar.deletePassword(service, profileId))
        keychainProfiles.delete(profileId)
      } catch (error) {
        // Nothing could have been stored where there is no keychain; a known copy that could
        // not be removed must be reported, or the user would believe the token gone.
        if (keychainProfiles.has(profileId) && error instanceof KeychainFailure) {
          throw unavailable(error.problem)
        }
      }
    },

    storageOf(profileId) {
      if (sessionTokens.has(profileId)) return 'session'
      if (keychainProfiles.has(profileId)) return 'keychain'
      return null
    },

    async getProxyCredentials(profileId) {
      let stored: string | null
      try {
        stored = await keychain((keytar) => keytar.getPassword(service, proxyAccount(profileId)))
      } catch {
        return null
      }
      return parseLogin(stored)
    },

    async setProxyCredentials(profileId, login) {
      assertAccount(profileId)
      const account = proxyAccount(profileId)
      try {
        if (login === null) {
          await keychain((keytar) => keytar.deletePassword(service, account))
        } else {
          const text = JSON.stringify({ username: login.username, password: login.password })
          await keychain((keytar) => keytar.setPassword(service, account, text))
        }
      } catch (error) {
        if (error instanceof KeychainFailure) throw unavailable(error.problem)
        throw error
      }
    },
  }
}

function parseLogin(stored: string | null): ProxyLogin | null {
  if (stored === null || stored === '') return null
  try {
    const value: unknown = JSON.parse(stored)
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as ProxyLogin).username === 'string' &&
      typeof (value as ProxyLogin).password === 'string'
    ) {
      return { username: (value as ProxyLogin).username, password: (value as ProxyLogin).password }
    }
  } catch {
    // A damaged item is no login: the proxy will say 407 and the user enters it again.
  }
  return null
}

function assertAccount(profileId: string): void {
  if (typeof profileId !== 'string' || profileId === '' || profileId === PROBE_ACCOUNT) {
    throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
      details: [{ path: ['profileId'], message: 'Not a usable profile id' }],
    })
  }
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  if (!(timeoutMs > 0)) return work
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new KeychainFailure({
          reason: 'The keychain did not answer.',
          fix: 'It may be locked and waiting for its password: unlock it, then try again.',
          cause: `no answer within ${timeoutMs} ms`,
        }),
      )
    }, timeoutMs)
    work.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}
