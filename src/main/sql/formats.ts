import type { SqlField } from '../../shared/bridge/channels/sql'
import { csvField } from '../../shared/csv'
import { displayText, toJsonText } from './values'

/*
 * A result as text: TSV, CSV, JSON or Markdown, produced in chunks so a 100,000-row save
 * streams through the atomic writer instead of building one giant string.
 */

export type ResultFormat = 'tsv' | 'csv' | 'json' | 'markdown'

/** Rows per chunk of output. */
const CHUNK_ROWS = 1000

export function* formatResult(
  format: ResultFormat,
  fields: readonly SqlField[],
  rows: Iterable<readonly unknown[]>,
  options: { headers: boolean },
): Generator<string> {
  const writer = WRITERS[format](fields, options.headers)
  let chunk = writer.start()
  let count = 0
  for (const row of rows) {
    chunk += writer.row(row, count)
    count += 1
    if (count % CHUNK_ROWS === 0) {
      yield chunk
      chunk = ''
    }
  }
  chunk += writer.end(count)
  if (chunk !== '') yield chunk
}

interface RowWriter {
  start(): string
  row(row: readonly unknown[], index: number): string
  end(count: number): string
}

const WRITERS: Record<ResultFormat, (fields: readonly SqlField[], headers: boolean) => RowWriter> =
  {
    // The shared writer: a result holds the database's text, so a formula cell is defused.
    csv: (fields, headers) => delimited(',', fields, headers, csvField),
    tsv: (fields, headers) => delimited('\t', fields, headers, tsvCell),
    markdown: (fields) => ({
      // A Markdown table needs its header row.
      start: () =>
        `| ${fields.map((field) => markdownCell(field.name)).join(' | ')} |\n` +
        `| ${fields.map((field) => (field.display === 'number' ? '---:' : '---')).join(' | ')} |\n`,
      row: (row) =>
        `| ${fields.map((_, column) => markdownCell(displayText(row[column]))).join(' | ')} |\n`,
      end: () => '',
    }),
    json: (fields) => {
      const keys = uniqueNames(fields.map((field) => field.name))
      return {
        start: () => '[',
        row: (row, index) => {
          const members = keys.map(
            (key, column) => `${JSON.stringify(key)}:${toJsonText(row[column] ?? null)}`,
          )
          return `${index === 0 ? '\n' : ',\n'}  {${members.join(',')}}`
        },
        end: (count) => (count === 0 ? ']\n' : '\n]\n'),
      }
    },
  }

function delimited(
  separator: string,
  fields: readonly SqlField[],
  headers: boolean,
  cell: (value: string | null) => string,
): RowWriter {
  return {
    start: () => (headers ? fields.map((field) => cell(field.name)).join(separator) + '\r\n' : ''),
    row: (row) =>
      fields.map((_, column) => cell(displayText(row[column]))).join(separator) + '\r\n',
    end: () => '',
  }
}

/** Spreadsheets read TSV with CSV's quoting: a tab or line break inside a value is quoted. */
function tsvCell(value: string | null): string {
  if (value === null) return ''
  if (/[\t\r\n"]/.test(value)) return `"${value.replace(/"/g, '""')}"`
  return value
}

function markdownCell(value: string | null): string {
  if (value === null) return '*NULL*'
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>')
}

/** JSON object keys must differ: `select 1, 1` has two "?column?" columns. */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>()
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1
    seen.set(name, count)
    return count === 1 ? name : `${name}_${count}`
  })
}
