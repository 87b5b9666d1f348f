import { validationFailure } from '../failure'

/** Items naming the same id twice cannot be applied in a defined order: a 400 on the repeat. */
export function assertUniqueIds(items: { id: string }[]): void {
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
export function missingIds(items: { id: string }[], records: { id: string }[]): string[] {
  const known = new Set(records.map((record) => record.id))
  return items.map((item) => item.id).filter((id) => !known.has(id))
}
