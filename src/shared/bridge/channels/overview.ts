import { z } from 'zod'
import { empty, id } from '../common'
import { certificateRowSchema } from './certificates'

/*
 * The Overview and Expiring everywhere: every profile at a glance and every cached
 * certificate that ends soon, read from the SQLite caches of all profiles at once (no network
 * call), and the Expiring list written to disk as CSV or iCalendar by main.
 */

/** Days ahead the Expiring list looks (a setting, 30 by default). */
export const expiringDays = z.int().min(1).max(3650)

/** One profile's figures, as its caches hold them. */
export const overviewProfileSchema = z.lazy(() =>
  z.object({
    profileId: id,
    /** The newest refresh of any of its cached lists (epoch ms); null when never. */
    lastRefreshAt: z.number().nullable(),
    /** The last call to its service could not reach it (this run); false until one failed. */
    offline: z.boolean(),
    /** Null when its certificate list was never read (not the same as a list of none). */
    certificates: z
      .object({
        /** Every cached certificate, system ones included. */
        total: z.int(),
        /** notAfter at or before now. */
        expired: z.int(),
        /** Not yet expired and ending within 7 days. */
        within7: z.int(),
        /** Not yet expired and ending within 30 days (the 7-day ones included). */
        within30: z.int(),
      })
      .nullable(),
    /** Open incidents of the cached status page; null when it was never read. */
    openIncidents: z.int().nullable(),
    transfersRunning: z.int(),
  }),
)
export type OverviewProfile = z.infer<typeof overviewProfileSchema>

export const overviewSchema = z.lazy(() =>
  z.object({
    /** The instant the figures were counted against (epoch ms). */
    now: z.number(),
    profiles: z.array(overviewProfileSchema),
  }),
)
export type Overview = z.infer<typeof overviewSchema>

/** A certificate of the Expiring list: its profile and its cached row. */
export const expiringCertificateSchema = z.lazy(() =>
  z.object({
    profileId: id,
    row: certificateRowSchema,
  }),
)
export type ExpiringCertificate = z.infer<typeof expiringCertificateSchema>

/** The first rows of the Expiring list sent with its counts; the rest is read in windows. */
export const EXPIRING_FIRST_WINDOW = 100
export const EXPIRING_WINDOW_MAX = 500

export const expiringListSchema = z.lazy(() =>
  z.object({
    days: expiringDays,
    /** Certificates ending before this instant are listed (ISO 8601, UTC). */
    until: z.string(),
    /** How many are listed in all. */
    total: z.int(),
    /** How many of them each profile has (profiles with none are left out). */
    perProfile: z.array(
      z.object({
        profileId: id,
        count: z.int(),
        /**
         * When its certificate list was fetched (epoch ms): how old its rows are. Beside the
         * profile's connectivity, the screen marks rows cached before its last failed call.
         */
        fetchedAt: z.number().nullable().optional(),
      }),
    ),
    /**
     * The first EXPIRING_FIRST_WINDOW, soonest first (expired ones lead), then by profile and id;
     * `overview.expiringWindow` reads the others (100,000 rows never cross the bridge at once).
     */
    items: z.array(expiringCertificateSchema),
  }),
)
export type ExpiringList = z.infer<typeof expiringListSchema>

/** Days ahead the Overview's expiry chart reads: 90 days, rounded out to whole weeks. */
export const EXPIRY_CHART_DAYS = 98

/**
 * Per profile and UTC day, how many cached certificates not yet expired end on that day, from
 * now to `until` (days without any are left out): the Overview draws them by week.
 */
export const expiryDaysSchema = z.lazy(() =>
  z.object({
    /** The instant counted from (epoch ms): certificates ending at or before it are expired. */
    now: z.number(),
    /** Certificates ending before this instant are counted (ISO 8601, UTC). */
    until: z.string(),
    days: z.array(
      z.object({
        profileId: id,
        /** The UTC date of their end, `YYYY-MM-DD`. */
        day: z.string(),
        count: z.int(),
      }),
    ),
  }),
)
export type ExpiryDays = z.infer<typeof expiryDaysSchema>

export const EXPIRING_EXPORT_FORMATS = ['csv', 'ics'] as const
export type ExpiringExportFormat = (typeof EXPIRING_EXPORT_FORMATS)[number]

export const overviewChannels = {
  'overview.summary': () => ({ input: empty, output: overviewSchema }),
  /** The Overview's expiry chart: certificates ending in the next EXPIRY_CHART_DAYS, per day. */
  'overview.expiryDays': () => ({ input: empty, output: expiryDaysSchema }),
  /** Every profile's cached certificates ending within `days` (default: the setting). */
  'overview.expiring': () => ({
    input: z.object({ days: expiringDays.optional() }),
    output: expiringListSchema,
  }),
  /** Rows of the list `until` names, from `offset`, in its order. */
  'overview.expiringWindow': () => ({
    input: z.object({
      until: z.iso.datetime(),
      offset: z.int().min(0),
      limit: z.int().min(1).max(EXPIRING_WINDOW_MAX),
    }),
    output: z.object({ items: z.array(expiringCertificateSchema) }),
  }),
  /**
   * The Expiring list written by main: CSV, or iCalendar (one event per certificate on its
   * expiry date, a reminder `days` before). `path` null: the save dialog was cancelled.
   */
  'overview.exportExpiring': () => ({
    input: z.object({
      format: z.enum(EXPIRING_EXPORT_FORMATS),
      days: expiringDays.optional(),
    }),
    output: z.object({
      path: z.string().nullable(),
      bytes: z.number(),
      sha256: z.string().nullable(),
      count: z.int(),
      /** Its row in the transfers log (web mode downloads it to the browser from there). */
      transferId: z.string().nullable(),
    }),
  }),
  /** Certificates whose name, common name or SANs hold `query`, in every profile's cache. */
  'overview.searchCertificates': () => ({
    input: z.object({
      query: z.string().trim().min(1).max(200),
      limit: z.int().min(1).max(100).default(20),
    }),
    output: z.array(expiringCertificateSchema),
  }),
} as const

export const overviewEvents = {} as const
