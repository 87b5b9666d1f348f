import { createRequire } from 'node:module'

/*
 * The OS keychain through keytar, loaded only when first needed: keytar is a native module
 * that links libsecret on Linux, and a machine without it (or without a Secret Service) must
 * still run the app and say why tokens cannot be kept.
 */

/** The part of keytar the vault uses (a test or another platform may pass its own). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

export function loadKeytar(): KeytarLike {
  // createRequire: keytar is CommonJS with a native binding; electron-vite keeps it external.
  const require = createRequire(import.meta.url)
  const loaded = require('keytar') as KeytarLike & { default?: KeytarLike }
  return loaded.default ?? loaded
}

/** Why the keychain cannot be used, and how to fix it, in words for the user. */
export interface KeychainProblem {
  reason: string
  fix: string
  /** The library's own words, for diagnostics only (never holds a token). */
  cause: string
}

/** Reads an error from keytar (or from loading it) as a problem a user can act on. */
export function explainKeychainError(
  error: unknown,
  platform: NodeJS.Platform = process.platform,
): KeychainProblem {
  const cause = error instanceof Error ? error.message : String(error)
  const text = cause.toLowerCase()

  if (
    /locked|unlock|prompt dismissed|user canceled|user cancelled|interaction not allowed/.test(text)
  ) {
    return {
      reason: 'The keychain is locked.',
      fix:
        platform === 'darwin'
          ? 'Unlock the login keychain (Keychain Access), then try again.'
          : platform === 'win32'
            ? 'Sign in to Windows again to unlock the Credential Manager, then try again.'
            : 'Unlock the login keyring (e.g. with Seahorse, "Passwords and Keys"), then try again.',
      cause,
    }
  }

  if (
    /cannot find module|libsecret|shared object|was compiled against|module did not self-register|dlopen/.test(
      text,
    )
  ) {
    return {
      reason: 'The keychain library could not be loaded on this computer.',
      fix:
        platform === 'linux'
          ? 'Install libsecret (e.g. "sudo apt install libsecret-1-0") and gnome-keyring, then restart Infradesk.'
          : 'Reinstall Infradesk; its keychain module is missing or damaged.',
      cause,
    }
  }

  if (platform === 'linux') {
    if (/collection\/login|no such secret collection|object does not exist at path/.test(text)) {
      return {
        reason: 'The Secret Service has no login keyring to store tokens in.',
        fix: 'Create and unlock a default ("login") keyring, e.g. with Seahorse, then try again.',
        cause,
      }
    }
    return {
      reason: 'No Secret Service (D-Bus) is running, so there is no keychain to keep tokens in.',
      fix: 'Install and unlock gnome-keyring, or start the app inside a desktop session.',
      cause,
    }
  }

  return {
    reason: 'The system keychain could not be used.',
    fix:
      platform === 'darwin'
        ? 'Check that the login keychain exists and is unlocked (Keychain Access), then try again.'
        : 'Check that the Windows Credential Manager is available, then try again.',
    cause,
  }
}
