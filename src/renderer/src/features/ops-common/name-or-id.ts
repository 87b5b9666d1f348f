/*
 * What an id field's text is: an id, or the name of an object the app has seen. A
 * name stands for its object only where exactly one object of the field's kind has it;
 * a name that several objects share is refused, naming the ids it could be. Names compare
 * without regard to case and surrounding spaces; an id (a known one, or anything that is no
 * known name) is taken as typed.
 */

export type NameOrId =
  | { kind: 'id' }
  | { kind: 'name'; name: string; id: string }
  | { kind: 'ambiguous'; name: string; ids: string[] }

export function readNameOrId(text: string, names: ReadonlyMap<string, string>): NameOrId {
  const typed = text.trim()
  if (typed === '' || names.has(typed)) return { kind: 'id' }
  const wanted = typed.toLowerCase()
  const ids = [...names]
    .filter(([, name]) => name.trim().toLowerCase() === wanted)
    .map(([id]) => id)
  const [only] = ids
  if (only === undefined) return { kind: 'id' }
  if (ids.length === 1) return { kind: 'name', name: names.get(only) ?? typed, id: only }
  return { kind: 'ambiguous', name: typed, ids }
}

/** The field's message for a name several objects share. */
export function ambiguousNameMessage(reading: { name: string; ids: readonly string[] }): string {
  return `“${reading.name}” is the name of ${reading.ids.length} objects: ${reading.ids.join(
    ', ',
  )}. Choose one by its id.`
}
