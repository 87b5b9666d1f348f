import { z } from 'zod'
import { OPERATION_NAMES } from '../../api'
import { id } from '../common'

/*
 * The audit trail: the Activity log, filtered, written to disk by main as CSV or
 * NDJSON. The filters are those of `activity.list` plus a time range.
 */

/**
 * Lines the app writes for work of its own that no operation of the service names (the Expiring
 * list's CSV/.ics spans every profile and calls nothing): filterable like an operation.
 */
export const APP_ACTIVITY_LINES = {
  exportExpiring: 'Export the expiring certificates (CSV or .ics)',
} as const
export type AppActivityLine = keyof typeof APP_ACTIVITY_LINES

export const AUDIT_EXPORT_FORMATS = ['csv', 'ndjson'] as const
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number]

/** The Activity screen's filters, as both the list and the export take them. */
export const activityFilterSchema = z.object({
  profileId: id.optional(),
  /** Only this operation's entries (a name from the service contract, or an app line's). */
  operation: z
    .enum([...OPERATION_NAMES, ...Object.keys(APP_ACTIVITY_LINES)] as [string, ...string[]])
    .optional(),
  outcome: z.enum(['success', 'error']).optional(),
  /** Entries at or after this instant (epoch ms). */
  from: z.number().int().min(0).optional(),
  /** Entries before this instant (epoch ms). */
  to: z.number().int().min(0).optional(),
})
export type ActivityFilter = z.infer<typeof activityFilterSchema>

export const activityChannels = {
  /**
   * Every entry the filters let through (not only the screen's 500), oldest first, written by
   * main to a file the user chose (desktop) or to the downloads folder (web mode). `path` is
   * null when the user cancelled the save dialog.
   */
  'activity.export': () => ({
    input: activityFilterSchema.extend({ format: z.enum(AUDIT_EXPORT_FORMATS) }),
    output: z.object({
      path: z.string().nullable(),
      bytes: z.number(),
      sha256: z.string().nullable(),
      rows: z.number(),
    }),
  }),
} as const
