import { z } from 'zod'
import { empty } from '../common'

/*
 * App settings (Settings screen): kept in `<dataDir>/settings.json`, beside the profiles, so a
 * rebuilt cache never loses them. Main fills the defaults; the renderer reads and patches.
 */

export const THEMES = ['system', 'light', 'dark'] as const
export type Theme = (typeof THEMES)[number]

export const MAX_ROWS_LIMIT = 100_000

/** How often background refresh reads each profile's certificates and status page. */
export const BACKGROUND_REFRESH_CHOICES = ['off', '15min', 'hourly', 'daily'] as const
export type BackgroundRefresh = (typeof BACKGROUND_REFRESH_CHOICES)[number]

export const settingsSchema = z.object({
  /** Where web mode saves exports (Electron asks with a save dialog). Absolute path. */
  downloadsDir: z.string().min(1).max(4096),
  /** Per-request timeout of service calls. */
  requestTimeoutMs: z.int().min(1_000).max(600_000),
  /** The SQL console's maxRows for a new tab. */
  defaultMaxRows: z.int().min(1).max(MAX_ROWS_LIMIT),
  theme: z.enum(THEMES),
  /** The SQL console asks before UPDATE/DELETE without WHERE, DROP and TRUNCATE, on every profile. */
  confirmDestructive: z.boolean(),
  /** How many days ahead the Overview's Expiring list looks. */
  expiringDays: z.int().min(1).max(3650),
  /** Background refresh of every signed-in profile (src/main/features/background-refresh.ts). */
  backgroundRefresh: z.enum(BACKGROUND_REFRESH_CHOICES),
  /** The SQL console's saved-query folder; '' is `<data folder>/queries`. Absolute. */
  sqlLibraryDir: z.string().max(4096),
})
export type Settings = z.infer<typeof settingsSchema>

export const settingsChannels = {
  'settings.get': () => ({ input: empty, output: settingsSchema }),
  /** Patches the settings; main checks that downloadsDir is a writable folder. */
  'settings.update': () => ({ input: settingsSchema.partial(), output: settingsSchema }),
} as const

export const settingsEvents = {
  'settings.changed': () => settingsSchema,
} as const
