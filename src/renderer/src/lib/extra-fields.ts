/*
 * Responses are parsed leniently (ARCHITECTURE.md): a service may send fields the contract does
 * not name, and the app shows them rather than dropping them.
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

/** A value of unknown type as short text: strings as is, null as "—", the rest as JSON. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'string') return value === '' ? '""' : value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}
