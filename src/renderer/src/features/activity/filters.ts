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
  /** The first day shown (`YYYY-MM-DD`, a day of this computer's time zone), or none. */
  fromDay: string | null
  /** The last day shown, whole (`YYYY-MM-DD`, local), or none. */
  untilDay: string | null
}

export const NO_FILTERS: ActivityFilters = {
  profileId: null,
  operation: null,
  outcome: null,
  fromDay: null,
  untilDay: null,
}

/**
 * The time range of the chosen days as epoch ms: from the start of the first day to the start
 * of the day after the last (local days: what a date picker means). A day that is not a real
 * date is no bound.
 */
export function timeRangeOf(filters: Pick<ActivityFilters, 'fromDay' | 'untilDay'>): {
  from?: number
  to?: number
} {
  const from = startOfLocalDay(filters.fromDay, 0)
  const to = startOfLocalDay(filters.untilDay, 1)
  return { ...(from === null ? {} : { from }), ...(to === null ? {} : { to }) }
}

/**
 * Why the chosen days cannot be asked for, or null: a From day after the Until day (which a
 * typed date can give; the pickers' min and max do not stop it) would read no line at all and
 * look like an empty log. Both are `YYYY-MM-DD`, so text order is date order.
 */
export function rangeProblem(
  filters: Pick<ActivityFilters, 'fromDay' | 'untilDay'>,
): string | null {
  const { fromDay, untilDay } = filters
  if (fromDay === null || untilDay === null || fromDay <= untilDay) return null
  return `From ${fromDay} is after Until ${untilDay}. Choose a From day on or before the Until day; until then the list below is the last one read.`
}

function startOfLocalDay(day: string | null, plusDays: number): number | null {
  const match = day === null ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (match === null) return null
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const at = new Date(year, month - 1, date + plusDays).getTime()
  return Number.isFinite(at) && at >= 0 ? at : null
}

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
  return { limit: ACTIVITY_LIMIT, ...filterRequest(filters) }
}

/** The export of every line these filters let through (not only the screen's 500). */
export function exportRequest(
  filters: ActivityFilters,
  format: 'csv' | 'ndjson',
): ChannelInput<'activity.export'> {
  return { format, ...filterRequest(filters) }
}

function filterRequest(filters: ActivityFilters) {
  return {
    ...(filters.profileId === null ? {} : { profileId: filters.profileId }),
    ...(filters.operation === null ? {} : { operation: filters.operation }),
    ...(filters.outcome === null ? {} : { outcome: filters.outcome }),
    ...timeRangeOf(filters),
  }
}
