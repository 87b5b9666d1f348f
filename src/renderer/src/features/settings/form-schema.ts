import { z } from 'zod'
import { settingsSchema } from '../../../../shared/bridge'

/*
 * The Settings form, built on the bridge contract's settings schema. Fields keep the contract's
 * names, so main's VALIDATION_ERROR (e.g. on `downloadsDir`) lands on the right field; inputs
 * hold text, read as numbers here. The timeout is typed in seconds (people think in seconds)
 * and checked against the contract's millisecond bounds, worded in seconds.
 */

const { downloadsDir, requestTimeoutMs, defaultMaxRows, sqlLibraryDir } = settingsSchema.shape

const numberText = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'Enter a number')
  .transform(Number)

const minSeconds = (requestTimeoutMs.minValue ?? 1_000) / 1_000
const maxSeconds = (requestTimeoutMs.maxValue ?? 600_000) / 1_000

export const settingsFormSchema = z.object({
  downloadsDir: downloadsDir.refine((value) => value.trim() !== '', 'Required'),
  requestTimeoutMs: numberText
    .pipe(
      z
        .number()
        .min(minSeconds, `At least ${minSeconds} second${minSeconds === 1 ? '' : 's'}`)
        .max(maxSeconds, `At most ${maxSeconds} seconds`),
    )
    .transform((seconds) => Math.round(seconds * 1_000))
    .pipe(requestTimeoutMs),
  defaultMaxRows: numberText.pipe(z.int('Enter a whole number').pipe(defaultMaxRows)),
  /** Empty: the `queries` folder in the data folder (main checks any other folder exists). */
  sqlLibraryDir: sqlLibraryDir.transform((value) => value.trim()),
})

export type SettingsFormValues = z.input<typeof settingsFormSchema>

export function settingsFormValues(settings: z.output<typeof settingsSchema>): SettingsFormValues {
  return {
    downloadsDir: settings.downloadsDir,
    requestTimeoutMs: String(settings.requestTimeoutMs / 1_000),
    defaultMaxRows: String(settings.defaultMaxRows),
    sqlLibraryDir: settings.sqlLibraryDir,
  }
}
