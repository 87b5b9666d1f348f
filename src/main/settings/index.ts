import { existsSync, readFileSync, renameSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { toValidationIssues } from '../../shared/api'
import type { Notice, Settings } from '../../shared/bridge'
import { settingsSchema } from '../../shared/bridge'
import { ServiceError } from '../api/errors'
import { makePrivateFolder, tightenPrivateFile } from '../data-folder'
import { removeStaleTempFiles, writeFileAtomicSync } from '../transfers/atomic-file'

/*
 * App settings in `<dataDir>/settings.json`, beside the profiles (not in the cache, which may be
 * rebuilt). Missing or unreadable values fall back to the defaults one by one, so one bad value
 * never costs the others; a file that is not JSON at all is moved aside with a notice.
 */

export const SETTINGS_FILE_NAME = 'settings.json'

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000
export const DEFAULT_MAX_ROWS = 1_000

export function defaultSettings(overrides: Partial<Settings> = {}): Settings {
  return {
    downloadsDir: path.join(homedir(), 'Downloads'),
    requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
    defaultMaxRows: DEFAULT_MAX_ROWS,
    theme: 'system',
    confirmDestructive: true,
    expiringDays: 30,
    backgroundRefresh: 'hourly',
    sqlLibraryDir: '',
    ...overrides,
  }
}

export interface SettingsStore {
  get(): Settings
  /** What each setting is before the user changes it (the default downloads folder is made on use). */
  readonly defaults: Settings
  /** Validates and writes the patch; returns the new settings. */
  update(patch: Partial<Settings>): Settings
  onChange(listener: (settings: Settings) => void): () => void
  readonly notices: Notice[]
}

export function createSettingsStore(file: string, defaults: Settings): SettingsStore {
  makePrivateFolder(path.dirname(file))
  removeStaleTempFiles(file)
  // Written 0600 (writeFileAtomicSync); one an older version or a hand left looser is tightened.
  tightenPrivateFile(file)
  const notices: Notice[] = []
  let current = read(file, defaults, notices)
  const listeners = new Set<(settings: Settings) => void>()

  return {
    notices,
    defaults: { ...defaults },
    get: () => ({ ...current }),
    update(patch) {
      const parsed = settingsSchema.partial().safeParse(patch)
      if (!parsed.success) {
        throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
          details: toValidationIssues(parsed.error),
        })
      }
      const defined = Object.fromEntries(
        Object.entries(parsed.data).filter(([, value]) => value !== undefined),
      ) as Partial<Settings>
      const next: Settings = { ...current, ...defined }
      writeFileAtomicSync(file, `${JSON.stringify(next, null, 2)}\n`)
      current = next
      for (const listener of listeners) listener({ ...next })
      return { ...next }
    },
    onChange(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}

function read(file: string, defaults: Settings, notices: Notice[]): Settings {
  if (!existsSync(file)) return { ...defaults }
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`
    renameSync(file, aside)
    notices.push({
      id: `settings-recovered-${Date.now()}`,
      level: 'warning',
      message: `The settings file was not valid JSON. It was moved aside to ${path.basename(aside)}; the defaults apply.`,
    })
    return { ...defaults }
  }
  const settings: Settings = { ...defaults }
  if (raw === null || typeof raw !== 'object') return settings
  const shape = settingsSchema.shape
  for (const key of Object.keys(shape) as (keyof Settings)[]) {
    const parsed = shape[key].safeParse((raw as Record<string, unknown>)[key])
    // One bad value falls back to its default; the others are kept.
    if (parsed.success) (settings as Record<string, unknown>)[key] = parsed.data
  }
  return settings
}
