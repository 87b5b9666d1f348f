import type { Connectivity } from '../../app/store'
import { formatAge } from '../../lib/time'

/*
 * All expiring mixes every profile's cached rows: those of a profile whose service could not be
 * reached at its last call are older than that call, and say so in the Expiring list. The
 * rows' age is their certificate list's fetch time (overview.expiring's perProfile); the
 * connectivity is the one account the sidebar and the Overview show (app store).
 */

/**
 * "cached 12 min ago, service unreachable" for rows cached before the profile's last failed
 * call; null while its last call reached the service (or none was made this run), or when the
 * rows were fetched after it.
 */
export function offlineRowMark(
  fetchedAt: number | null | undefined,
  connectivity: Connectivity | undefined,
  now: number,
): string | null {
  if (!connectivity?.offline) return null
  const failedAt = connectivity.checkedAt
  if (fetchedAt != null && failedAt !== null && fetchedAt >= failedAt) return null
  return fetchedAt == null
    ? 'cached, service unreachable'
    : `cached ${formatAge(fetchedAt, now)}, service unreachable`
}
