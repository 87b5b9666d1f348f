import { z } from 'zod'

/*
 * Background refresh's notifications: main tells the renderer when a refresh found
 * certificates that newly expired or entered the 7-day window. The desktop app shows a system
 * notification itself and only asks the renderer to open the Expiring list when it is clicked;
 * web mode has no system notifications in main, so the renderer shows the summary through the
 * browser's Notification API (once the user allowed it in Settings).
 */

/** The Expiring list's route (the Overview's screens, src/renderer/src/features/overview). */
export const EXPIRING_ROUTE_HASH = '#/expiring'

export const expirySummarySchema = z.lazy(() =>
  z.object({
    title: z.string().max(200),
    body: z.string().max(2000),
    /** Certificates the summary tells of. */
    count: z.int().min(1),
  }),
)
export type ExpirySummary = z.infer<typeof expirySummarySchema>

export const backgroundRefreshEvents = {
  /** Web mode: one summary per refresh, for the browser's Notification API. */
  'expiry.notification': () => expirySummarySchema,
  /** Desktop: the user clicked the system notification; the renderer opens the Expiring list. */
  'expiry.open': () => z.object({}),
} as const
