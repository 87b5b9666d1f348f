import { EXPIRING_FIRST_WINDOW, EXPIRY_CHART_DAYS } from '../../shared/bridge/channels/overview'
import type {
  ExpiringCertificate,
  ExpiryDays,
  ExpiringList,
  OverviewProfile,
} from '../../shared/bridge/channels/overview'
import type Database from 'better-sqlite3'
import { readIncident } from '../../shared/status-page'
import { answersAsJson } from '../bridge/dispatcher'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { certificateListReadOn } from '../cache/certificates'
import { createOverviewReads } from '../cache/overview'
import type { DeskContext } from './context'
import { listWorkerOf } from './lists'
import { chooseSaveTarget, EVERY_PROFILE, recordExportActivity, saveToDisk } from './save-to-disk'

/*
 * The Overview, Expiring everywhere and the palette's certificate search. Everything
 * is read from the SQLite caches of every profile, never from the network, so the overview
 * paints offline and at once; one statement per kind of figure covers all profiles
 * (cache/overview.ts). Exports are written by main with the atomic writer, as every export.
 */

type Handlers = Pick<
  BridgeHandlers,
  | 'overview.summary'
  | 'overview.expiryDays'
  | 'overview.expiring'
  | 'overview.expiringWindow'
  | 'overview.exportExpiring'
  | 'overview.searchCertificates'
>

const DAY_MS = 24 * 60 * 60 * 1000

export function overviewHandlers(context: DeskContext, clock: () => number = Date.now): Handlers {
  const reads = createOverviewReads(context.cache)
  const certificateListRead = context.cache.extend((db) => certificateListReadOn(db))
  const expiryDays = context.cache.extend((db) => expiryDaysOn(db))

  function window(days: number | undefined): { days: number; until: string } {
    const chosen = days ?? context.settings.get().expiringDays
    return { days: chosen, until: new Date(clock() + chosen * DAY_MS).toISOString() }
  }

  /** The list's counts and its first window (as JSON text, unparsed). */
  function expiringHead(days: number | undefined) {
    const chosen = window(days)
    const perProfile = reads.expiringCounts(chosen.until)
    const total = totalOf(perProfile)
    const first = reads.expiringWindowJson(chosen.until, 0, EXPIRING_FIRST_WINDOW)
    return { head: { ...chosen, total, perProfile }, first }
  }

  return {
    async 'overview.summary'() {
      const now = clock()
      const counts = reads.certificateCounts(now)
      const refreshed = reads.lastRefresh()
      const incidents = reads.incidentItems()
      const running = reads.transfersRunning()
      const profiles = context.profiles.list().map((profile): OverviewProfile => ({
        profileId: profile.id,
        lastRefreshAt: refreshed.get(profile.id) ?? null,
        offline: context.connectivity.offline(profile.id),
        // Never read is not "none": the Overview must not show zeros for a list it has not seen.
        certificates: certificateListRead(profile.id)
          ? (counts.get(profile.id) ?? { total: 0, expired: 0, within7: 0, within30: 0 })
          : null,
        openIncidents: openIncidentsOf(incidents.get(profile.id)),
        transfersRunning: running.get(profile.id) ?? 0,
      }))
      return { now, profiles }
    },

    async 'overview.expiryDays'() {
      const now = clock()
      const until = new Date(now + EXPIRY_CHART_DAYS * DAY_MS).toISOString()
      return { now, until, days: expiryDays(new Date(now).toISOString(), until) }
    },

    'overview.expiring': answersAsJson(
      async ({ days }): Promise<ExpiringList> => {
        const { head, first } = expiringHead(days)
        return { ...head, items: JSON.parse(first) as ExpiringCertificate[] }
      },
      async ({ days }) => {
        const { head, first } = expiringHead(days)
        // `{"days":…,…,"items":` then the rows as SQLite joined them, unparsed.
        const opening = JSON.stringify(head).slice(0, -1)
        return Buffer.from(`${opening},"items":${first}}`)
      },
    ),

    'overview.expiringWindow': answersAsJson(
      async ({ until, offset, limit }) => ({
        items: JSON.parse(reads.expiringWindowJson(until, offset, limit)) as ExpiringCertificate[],
      }),
      async ({ until, offset, limit }) =>
        Buffer.from(`{"items":${reads.expiringWindowJson(until, offset, limit)}}`),
    ),

    async 'overview.exportExpiring'({ format, days }) {
      const chosen = window(days)
      const stamp = new Date(clock()).toISOString().slice(0, 10)
      const target = await chooseSaveTarget(context, {
        title: format === 'csv' ? 'Export the Expiring list' : 'Export the Expiring calendar',
        defaultName: `expiring-certificates-${stamp}.${format}`,
        filter:
          format === 'csv'
            ? { name: 'CSV', extension: 'csv' }
            : { name: 'iCalendar', extension: 'ics' },
      })
      if (target === null) {
        return {
          path: null,
          bytes: 0,
          sha256: null,
          count: totalOf(reads.expiringCounts(chosen.until)),
          transferId: null,
        }
      }
      // Read and written in the list worker: ~1 s for 100,000 rows, off main's loop. A file
      // like any other: a row in Transfers and a line in Activity (save-to-disk.ts).
      const kind = format === 'csv' ? 'CSV' : 'calendar'
      try {
        let count = 0
        const written = await saveToDisk(
          context,
          target,
          {
            profileId: EVERY_PROFILE.id,
            profileName: EVERY_PROFILE.name,
            kind: 'certificate',
            label: `Expiring certificates (${format.toUpperCase()}, within ${chosen.days} days)`,
            source: { list: 'expiring', format, days: chosen.days },
          },
          async () => {
            const file = await listWorkerOf(context).expiringFile({
              format,
              until: chosen.until,
              days: chosen.days,
              now: clock(),
              profiles: context.profiles
                .list()
                .map(({ id, name, baseUrl }) => ({ id, name, baseUrl })),
            })
            count = file.count
            return file.bytes
          },
        )
        recordExportActivity(context, EVERY_PROFILE, 'exportExpiring', null, {
          message: `${kind} of ${count} expiring certificates saved to ${written.path}`,
        })
        return {
          path: written.path,
          bytes: written.size,
          sha256: written.sha256,
          count,
          transferId: written.transferId,
        }
      } catch (error) {
        recordExportActivity(context, EVERY_PROFILE, 'exportExpiring', null, { error })
        throw error
      }
    },

    async 'overview.searchCertificates'({ query, limit }) {
      const text = reads.searchJson(query.toLowerCase(), limit).toString('utf8')
      return JSON.parse(text) as ExpiringCertificate[]
    },
  }
}

/**
 * The expiry chart's read: per profile and UTC day (the first ten characters of `not_after`, as
 * toISOString wrote it), certificates ending after `now` and before `until`. A range of the
 * expiry index, as the overview's counts read it (cache/overview.ts); kept beside its one
 * caller. Its own bridge call, after the summary's: the table does not wait for it.
 */
function expiryDaysOn(db: Database.Database) {
  const perDay = db.prepare<[now: string, until: string], ExpiryDays['days'][number]>(
    `SELECT profile_id AS profileId, substr(not_after, 1, 10) AS day, count(*) AS count
       FROM certificate_rows INDEXED BY certificate_rows_by_not_after
      WHERE not_after > ? AND not_after < ?
      GROUP BY profile_id, day ORDER BY profile_id, day`,
  )
  return (now: string, until: string) => perDay.all(now, until)
}

/** How many certificates the Expiring list holds, from its per-profile counts. */
function totalOf(perProfile: readonly { count: number }[]): number {
  return perProfile.reduce((sum, entry) => sum + entry.count, 0)
}

/** Open incidents among the cached ones; null when the status page was never read. */
function openIncidentsOf(items: unknown[] | undefined): number | null {
  if (items === undefined) return null
  let open = 0
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue
    const fields = item as Record<string, unknown>
    if (typeof fields['id'] !== 'string') continue
    if (readIncident({ ...fields, id: fields['id'] }).open) open += 1
  }
  return open
}
