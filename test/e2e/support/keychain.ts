import { spawnSync } from 'node:child_process'

/*
 * Reads the OS keychain the way a user's tools would (libsecret's secret-tool), to check what
 * the app stored or deleted: service "Infradesk", account = profile id.
 */

/** The secret stored for a profile, or null when there is none. */
export function keychainSecret(profileId: string): string | null {
  const result = spawnSync(
    'secret-tool',
    ['lookup', 'service', 'Infradesk', 'account', profileId],
    {
      encoding: 'utf8',
      env: process.env,
    },
  )
  if (result.error) throw new Error(`secret-tool could not run: ${result.error.message}`)
  // secret-tool exits 1 with no output when nothing matches.
  if (result.status !== 0 || result.stdout === '') return null
  return result.stdout
}
