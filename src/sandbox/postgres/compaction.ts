/*
 * How the gateway flavour cuts op 5's answer down to size, by the rules a real deployment
 * follows (wiolett-industries/gateway, `modules/databases/database-result-compaction.ts` and
 * `database-query-execution.ts`; facts only, the code is ours):
 * - a result keeps at most maxRows rows and at most 512 KiB of JSON rows;
 * - the row that reaches the budget is shortened to fit what is left: strings are cut at a
 *   UTF-8 byte count (no mark), objects and arrays keep the members that fit (at most four
 *   levels deep), and any other value that does not fit becomes `{ preview, truncated: true }`;
 * - the answer's results stop at 768 KiB of JSON (the whole answer is then `truncated`).
 * Sizes are JSON.stringify's UTF-8 bytes; kept as running totals, so a 2,000-row result is
 * measured once, not once per row.
 */

export const RESULT_MAX_BYTES = 512 * 1024
export const RESPONSE_MAX_BYTES = 768 * 1024
const MAX_DEPTH = 4

export function jsonBytes(value: unknown): number {
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch {
    text = undefined
  }
  return Buffer.byteLength(text ?? String(value), 'utf8')
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`. */
export function cutUtf8(text: string, maxBytes: number): { value: string; cut: boolean } {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return { value: text, cut: false }
  let low = 0
  let high = text.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (Buffer.byteLength(text.slice(0, middle), 'utf8') <= maxBytes) low = middle
    else high = middle - 1
  }
  return { value: text.slice(0, low), cut: true }
}

interface Compacted {
  value: unknown
  cut: boolean
}

/** A value made to fit in `maxBytes` of JSON, by the rules above. */
export function compactValue(value: unknown, maxBytes: number, depth = 0): Compacted {
  if (maxBytes <= 0) return { value: null, cut: true }
  const size = jsonBytes(value)
  if (size <= maxBytes) return { value, cut: false }
  if (typeof value === 'string') return cutUtf8(value, maxBytes)
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') {
    const preview = cutUtf8(JSON.stringify(value) ?? String(value), maxBytes)
    return { value: { preview: preview.value, truncated: true }, cut: true }
  }
  if (Array.isArray(value)) {
    const output: unknown[] = []
    // '[' and ']', and a ',' before every item but the first.
    let used = 2
    for (const item of value) {
      const remaining = maxBytes - used - 2
      if (remaining <= 0) break
      const compact = compactValue(item, remaining, depth + 1)
      const added = jsonBytes(compact.value) + (output.length > 0 ? 1 : 0)
      if (used + added > maxBytes) break
      output.push(compact.value)
      used += added
    }
    return { value: output, cut: true }
  }
  const output: Record<string, unknown> = {}
  let used = 2
  let members = 0
  for (const [key, item] of Object.entries(value)) {
    const keyBytes = Buffer.byteLength(key, 'utf8')
    const remaining = maxBytes - used - keyBytes - 8
    if (remaining <= 0) break
    const compact = compactValue(item, remaining, depth + 1)
    const added = jsonBytes(key) + 1 + jsonBytes(compact.value) + (members > 0 ? 1 : 0)
    if (used + added > maxBytes) break
    output[key] = compact.value
    used += added
    members += 1
  }
  return { value: output, cut: true }
}

/** A result's rows within maxRows and 512 KiB; `truncated` when anything was left out or cut. */
export function compactRows(
  rows: readonly Record<string, unknown>[],
  maxRows: number,
  maxBytes = RESULT_MAX_BYTES,
): { rows: Record<string, unknown>[]; truncated: boolean } {
  const output: Record<string, unknown>[] = []
  let truncated = rows.length > maxRows
  let used = 2
  for (const row of rows.slice(0, maxRows)) {
    const remaining = maxBytes - used - 2
    if (remaining <= 0) {
      truncated = true
      break
    }
    const compact = compactValue(row, remaining)
    const added = jsonBytes(compact.value) + (output.length > 0 ? 1 : 0)
    if (used + added > maxBytes) {
      truncated = true
      break
    }
    output.push(compact.value as Record<string, unknown>)
    used += added
    truncated ||= compact.cut
  }
  return { rows: output, truncated }
}
