/*
 * Responses are parsed leniently (docs/SERVICE.md, "Full field sets of the generic resources"):
 * a service may send fields the contract does not name, and the app shows them rather than
 * dropping them.
 */

/** The fields of `item` not in `known`, in the order the service sent them. */
export function extraFields(item: object, known: readonly string[]): [string, unknown][] {
  return Object.entries(item).filter(([key]) => !known.includes(key))
}

/** Every extra key across a list, first-seen order: the columns a table needs for them. */
export function extraKeys(items: readonly object[], known: readonly string[]): string[] {
  const keys = new Set<string>()
  for (const item of items) for (const [key] of extraFields(item, known)) keys.add(key)
  return [...keys]
}

/** Longest text shown for one value: a service's 10 MB string must not become a 10 MB cell. */
export const MAX_DISPLAY_CHARS = 2_000

/**
 * A value of unknown type as short text: strings as is, null as "—", the rest as JSON; anything
 * longer than `maxChars` is cut and says how much was left out. Never throws (deep nesting,
 * cycles, BigInt), and returns text only: React shows it as text, so markup in a value (say a
 * certificate named `<img src=x onerror=alert(1)>`) is never interpreted. Integers beyond 2^53
 * arrive as the digit strings the service sent (src/main/api/json.ts) and show exactly.
 */
export function displayValue(value: unknown, maxChars = MAX_DISPLAY_CHARS): string {
  return shorten(fullText(value), maxChars)
}

function fullText(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'string') return value === '' ? '""' : value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value)
  }
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    // Too deep for the stack, or a cycle: say what it is rather than fail.
    return Array.isArray(value) ? '[…]' : '{…}'
  }
}

function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  let end = maxChars
  // Never cut between the two halves of a surrogate pair (an emoji would become garbage).
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${text.slice(0, end)}… (${(text.length - end).toLocaleString('en-US')} more characters)`
}
