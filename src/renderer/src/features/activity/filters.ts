import { operations, OPERATION_NAMES } from '../../../../shared/api'
import type { ChannelInput } from '../../../../shared/bridge'
import {
  APP_ACTIVITY_LINES,
  type AppActivityLine,
} from '../../../../shared/bridge/channels/activity'

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
  /**
   * The first day shown (`YYYY-MM-DD`, a day of this computer's time zone), or none. Held as
   * typed: a text that is not such a day is pointed out (filterProblem) and never asked for.
   */
  fromDay: string | null
  /** The last day shown, whole (`YYYY-MM-DD`, local), or none; as typed, like fromDay. */
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
 * A day as the screen writes it: `YYYY-MM-DD`, the form of the ISO times the log shows (not a
 * locale's mm/dd/yyyy), a real date. Single-digit months and days are padded.
 */
export function dayOf(text: string): string | null {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim())
  if (match === null) return null
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const at = new Date(year, month - 1, date)
  if (at.getFullYear() !== year || at.getMonth() !== month - 1 || at.getDate() !== date) return null
  return `${match[1]}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`
}

/** What is wrong with the days typed, and on which field(s), or null when they can be asked for. */
export interface FilterProblem {
  message: string
  fields: readonly ('fromDay' | 'untilDay')[]
}

/**
 * Why the typed days cannot be asked for, or null: a text that is not a day, or a From day after
 * the Until day (which would read no line at all and look like an empty log).
 */
export function filterProblem(
  filters: Pick<ActivityFilters, 'fromDay' | 'untilDay'>,
): FilterProblem | null {
  for (const [field, label] of [
    ['fromDay', 'From'],
    ['untilDay', 'Until'],
  ] as const) {
    const text = filters[field]
    if (text !== null && dayOf(text) === null) {
      return {
        message: `${label} “${text}” is not a day: write it as YYYY-MM-DD (${exampleDay()}). Until then the list below is the last one read.`,
        fields: [field],
      }
    }
  }
  const message = rangeProblem(filters)
  return message === null ? null : { message, fields: ['fromDay', 'untilDay'] }
}

/**
 * A From day after the Until day, or null. Both are read as `YYYY-MM-DD`, so text order is
 * date order.
 */
export function rangeProblem(
  filters: Pick<ActivityFilters, 'fromDay' | 'untilDay'>,
): string | null {
  const fromDay = filters.fromDay === null ? null : dayOf(filters.fromDay)
  const untilDay = filters.untilDay === null ? null : dayOf(filters.untilDay)
  if (fromDay === null || untilDay === null || fromDay <= untilDay) return null
  return `From ${fromDay} is after Until ${untilDay}. Choose a From day on or before the Until day; until then the list below is the last one read.`
}

/** Today, as the example of the form a day is written in. */
function exampleDay(): string {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
}

function startOfLocalDay(typed: string | null, plusDays: number): number | null {
  const day = typed === null ? null : dayOf(typed)
  const match = day === null ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (match === null) return null
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const at = new Date(year, month - 1, date + plusDays).getTime()
  return Number.isFinite(at) && at >= 0 ? at : null
}

/** How many lines the screen reads. */
export const ACTIVITY_LIMIT = 500

/**
 * "Cancel a storage copy job" for `cancelCopyJob`, the app's own words for a line of its own
 * (`exportExpiring`); a name neither knows, as it is.
 */
export function operationTitle(operation: string): string {
  if (Object.hasOwn(operations, operation)) {
    return operations[operation as keyof typeof operations].summary
  }
  if (Object.hasOwn(APP_ACTIVITY_LINES, operation)) {
    return APP_ACTIVITY_LINES[operation as AppActivityLine]
  }
  return operation
}

/**
 * Reads that write a line all the same: an export hands key material out (export.ts), a volume
 * export writes a file (volume-export-answer.ts).
 */
const LOGGED_READS: readonly string[] = ['exportCertificate', 'exportVolume']

/** The operations (and the app's own lines) that write activity lines, by their readable names. */
export function loggedOperations(): { name: string; title: string }[] {
  const names: string[] = [
    ...OPERATION_NAMES.filter((name) => operations[name].mutates || LOGGED_READS.includes(name)),
    ...Object.keys(APP_ACTIVITY_LINES),
  ]
  return names
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
