import { isParameterType, type ParameterType } from './parameters'

/*
 * The header of a saved query: the leading `--` comment lines of a `.sql` file, so the file
 * stays plain SQL that psql or any other client runs as it is.
 *
 *   -- title: Orders of a customer
 *   -- description: Open orders since a date.
 *   -- description: (a second line continues the description)
 *   -- param :customer uuid
 *   -- param :since date
 *   -- param :ids integer list        (for `IN (:ids)`)
 *   select * from orders where customer_id = :customer and ...
 *
 * Only the comment lines at the very top are read, up to the first line that is not a `--`
 * comment; other comment lines there are ignored. Keys are case-insensitive. A `param` line
 * with an unknown type is ignored (the form then asks with its default, text).
 */

export interface DeclaredParameter {
  name: string
  type: ParameterType
  list: boolean
}

export interface QueryHeader {
  title: string | null
  description: string | null
  parameters: DeclaredParameter[]
}

const KEY_LINE = /^--\s*(title|description)\s*:\s?(.*)$/i
const PARAM_LINE = /^--\s*param\s+:([A-Za-z_][A-Za-z0-9_$]*)\s+([a-z]+)(\s+list)?\s*$/i

export function parseQueryHeader(text: string): QueryHeader {
  const header: QueryHeader = { title: null, description: null, parameters: [] }
  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = rawLine.trim()
    if (!line.startsWith('--')) break
    const keyed = KEY_LINE.exec(line)
    if (keyed !== null) {
      const value = keyed[2]!.trim()
      if (keyed[1]!.toLowerCase() === 'title') header.title ??= value === '' ? null : value
      else
        header.description = header.description === null ? value : `${header.description}\n${value}`
      continue
    }
    const param = PARAM_LINE.exec(line)
    if (param === null) continue
    const type = param[2]!.toLowerCase()
    if (!isParameterType(type)) continue
    if (header.parameters.some((declared) => declared.name === param[1])) continue
    header.parameters.push({ name: param[1]!, type, list: param[3] !== undefined })
  }
  return header
}
