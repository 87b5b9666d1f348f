import { ExactNumber } from './values'

/*
 * Rows that cross between threads (the SQL parse worker, src/main/workers) go by structured
 * clone, which keeps plain values but not classes: an ExactNumber would arrive as a plain
 * `{ source }` object. Such a cell, at any depth of a JSON value, is sent as a tagged object
 * and made an ExactNumber again on arrival. Only answers that hold exact numbers are walked.
 */

const TAG = '__infradeskExactNumber'

type Tagged = { [TAG]: string }

function isTagged(value: object): value is Tagged {
  return Object.hasOwn(value, TAG) && typeof (value as Tagged)[TAG] === 'string'
}

function mapDeep(value: unknown, leaf: (value: object) => unknown | undefined): unknown {
  if (value === null || typeof value !== 'object') return value
  const replaced = leaf(value)
  if (replaced !== undefined) return replaced
  if (Array.isArray(value)) return value.map((item) => mapDeep(item, leaf))
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) copy[key] = mapDeep(item, leaf)
  return copy
}

/** The rows with every ExactNumber tagged, for a postMessage. */
export function tagExactNumbers(rows: unknown[][]): unknown[][] {
  return rows.map((row) =>
    row.map((cell) =>
      mapDeep(cell, (value) =>
        value instanceof ExactNumber ? { [TAG]: value.source } : undefined,
      ),
    ),
  )
}

/** The rows as tagExactNumbers sent them, with their ExactNumbers back. */
export function untagExactNumbers(rows: unknown[][]): unknown[][] {
  return rows.map((row) =>
    row.map((cell) =>
      mapDeep(cell, (value) => (isTagged(value) ? new ExactNumber(value[TAG]) : undefined)),
    ),
  )
}
