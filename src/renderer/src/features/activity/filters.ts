import { operations, OPERATION_NAMES } from '../../../../shared/api'
import type { ChannelInput } from '../../../../shared/bridge'

/*
 * The Activity screen's words and filters: an operation's readable name (the contract's own
 * summary of it), which operations can have lines (those that change something, since only
 * they are logged), and the `activity.list` request for a choice of filters. Pure.
 */

export type Outcome = 'success' | 'error'

export interface ActivityFilters {
  /** One profile's lines, or every profile's when null. */
  profileId: string | null
  operation: string | null
  outcome: Outcome | null
}

export const NO_FILTERS: ActivityFilters = { profileId: null, operation: null, outcome: null }

/** How many lines the screen reads. */
export const ACTIVITY_LIMIT = 500

/** "Cancel a storage copy job" for `cancelCopyJob`; a name the contract lacks, as it is. */
export function operationTitle(operation: string): string {
  return Object.hasOwn(operations, operation)
    ? operations[operation as keyof typeof operations].summary
    : operation
}

/** Reads that write a line all the same: an export hands key material out (export.ts). */
const LOGGED_READS: readonly string[] = ['exportCertificate']

/** The operations that write activity lines, by their readable names. */
export function loggedOperations(): { name: string; title: string }[] {
  return OPERATION_NAMES.filter((name) => operations[name].mutates || LOGGED_READS.includes(name))
    .map((name) => ({ name, title: operationTitle(name) }))
    .sort((a, b) => a.title.localeCompare(b.title))
}

export function activityRequest(filters: ActivityFilters): ChannelInput<'activity.list'> {
  return {
    limit: ACTIVITY_LIMIT,
    ...(filters.profileId === null ? {} : { profileId: filters.profileId }),
    ...(filters.operation === null ? {} : { operation: filters.operation }),
    ...(filters.outcome === null ? {} : { outcome: filters.outcome }),
  }
}
