import { notFound, validationFailure } from '../failure'

interface Ordered {
  id: string
  sortOrder: number
  updatedAt: string
}

/**
 * Ops 9 and 11: gives each record `items` names its new sortOrder, stamped `now`. Nothing
 * changes unless every id is named once and known: a 400 on a repeat, a 404 (naming `resource`
 * and the ids) on an unknown one. `rules.nonNegative` (the gateway flavour, as a real
 * deployment's `sortOrder: int().min(0)`) refuses a negative sortOrder on its item's field.
 */
export function applySortOrders(
  items: { id: string; sortOrder: number }[],
  records: Ordered[],
  resource: string,
  now: string,
  rules: { nonNegative: boolean } = { nonNegative: false },
): void {
  if (rules.nonNegative) assertNonNegative(items)
  assertUniqueIds(items)
  const missing = missingIds(items, records)
  if (missing.length > 0) throw notFound({ resource, ids: missing })
  const byId = new Map(records.map((record) => [record.id, record]))
  for (const item of items) {
    const record = byId.get(item.id)
    if (record) {
      record.sortOrder = item.sortOrder
      record.updatedAt = now
    }
  }
}

/** A negative sortOrder, refused where a real deployment refuses it (zod's own message). */
function assertNonNegative(items: { sortOrder: number }[]): void {
  const issues = items.flatMap((item, index) =>
    item.sortOrder < 0
      ? [
          {
            path: ['items', String(index), 'sortOrder'],
            message: 'Number must be greater than or equal to 0',
          },
        ]
      : [],
  )
  if (issues.length > 0) throw validationFailure(issues)
}

/** Items naming the same id twice cannot be applied in a defined order: a 400 on the repeat. */
function assertUniqueIds(items: { id: string }[]): void {
  const seen = new Set<string>()
  const issues = items.flatMap((item, index) => {
    if (!seen.has(item.id)) {
      seen.add(item.id)
      return []
    }
    return [{ path: ['items', String(index), 'id'], message: 'This id appears more than once' }]
  })
  if (issues.length > 0) throw validationFailure(issues)
}

/** Ids of `items` that no record has. */
function missingIds(items: { id: string }[], records: { id: string }[]): string[] {
  const known = new Set(records.map((record) => record.id))
  return items.map((item) => item.id).filter((id) => !known.has(id))
}
