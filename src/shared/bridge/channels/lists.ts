import { z } from 'zod'
import { inferenceModelSchema, sessionSchema } from '../../api'
import { id } from '../common'
import { bridgeErrorSchema } from '../result'

/*
 * Big lists in windows: sessions and inference models run to 10 MB and more, so the
 * whole list never crosses the bridge. Main keeps it (the SQLite cache, as the service sent
 * each row), filters and sorts it there, and a screen asks for the window of rows it shows with
 * the counts; `*.fetch` asks the service first and answers with the first window. Rows are
 * validated in main when the service's answer is read, and each window again here by the
 * renderer's client, like every bridge answer (a window is a few hundred rows).
 */

/** The most rows one window may ask for. */
export const LIST_MAX_WINDOW = 500
/** A field name usable as a sort key (main reads it from each row's JSON). */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const sortField = z.string().regex(/^[^"\\\u0000-\u001f]{1,100}$/, 'Not a field name')

export const listWindowInput = z.lazy(() =>
  z.object({
    profileId: id,
    offset: z.int().min(0).default(0),
    limit: z.int().min(1).max(LIST_MAX_WINDOW).default(100),
    /** Rows whose id contains every word of it, case-insensitively ("llama 70b"). */
    query: z.string().max(200).default(''),
    /** By one field of the rows; null: the service's order. Missing values sort last. */
    sort: z
      .object({ field: sortField, direction: z.enum(['asc', 'desc']).default('asc') })
      .nullable()
      .default(null),
  }),
)
export type ListWindowInput = z.input<typeof listWindowInput>
export type ListSort = z.output<typeof listWindowInput>['sort']

function listWindowSchema<T extends z.ZodType>(item: T) {
  return z.object({
    /** Rows of the whole list. */
    total: z.number(),
    /** Rows that pass the query (total without one). */
    matched: z.number(),
    /** Where `items` starts in the filtered, sorted list. */
    offset: z.number(),
    items: z.array(item),
    /** When the list was fetched from the service (epoch ms); null when never. */
    fetchedAt: z.number().nullable(),
    /** True when the last fetch could not reach the service (the cached list is shown). */
    offline: z.boolean(),
    /** Why the last fetch failed, if it did. */
    error: bridgeErrorSchema.nullable(),
  })
}

const sessionWindow = listWindowSchema(sessionSchema)
const modelWindow = listWindowSchema(inferenceModelSchema).extend({
  /** Every field the models carry beside `id`, first-seen order: the table's columns. */
  keys: z.array(z.string()),
})
export type SessionWindow = z.output<typeof sessionWindow>
export type ModelWindow = z.output<typeof modelWindow>

export const listChannels = {
  /** A window of the cached session list (op 1), with its counts. */
  'sessions.window': () => ({ input: listWindowInput, output: sessionWindow }),
  /**
   * Op 1 again, stored in the cache (cache.changed follows), answered with the first window.
   * Unreachable service: the cached window with offline: true.
   */
  'sessions.fetch': () => ({ input: listWindowInput, output: sessionWindow }),
  /** A window of the inference catalog last read (op 6). */
  'inference.window': () => ({ input: listWindowInput, output: modelWindow }),
  /** Reads the catalog (op 6) into main and answers with its first window. */
  'inference.fetch': () => ({ input: listWindowInput, output: modelWindow }),
} as const
