import { styleText } from 'node:util'
import type { SqlField } from '../shared/bridge/channels/sql'
import { formatResult } from '../main/sql/formats'

/*
 * What the commands print. Data goes to stdout (JSON, CSV or an aligned table), everything for
 * people to stderr, so a pipe gets only the data. Colour only on a terminal and never with
 * NO_COLOR: node:util's styleText checks both (and FORCE_COLOR) for the stream it writes to.
 */

export type ListFormat = 'table' | 'json' | 'csv'

export function writeOut(text: string): void {
  process.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`)
}

export function writeJson(value: unknown): void {
  writeOut(JSON.stringify(value, null, 2))
}

/** A note for the person at the terminal (stderr), dimmed where colour is allowed. */
export function note(text: string): void {
  process.stderr.write(`${styleText('dim', text, { stream: process.stderr })}\n`)
}

/** The one-line reason of a failure, on stderr. */
export function writeError(message: string): void {
  const line = message.replace(/\s*\n\s*/g, ' ')
  process.stderr.write(`${styleText('red', 'error:', { stream: process.stderr })} ${line}\n`)
}

export interface Column<Row> {
  name: string
  value(row: Row): string | number | boolean | null
  numeric?: boolean
}

/** Rows as CSV (the SQL console's writer: RFC 4180 quoting) or as an aligned table. */
export function writeRows<Row>(
  format: 'table' | 'csv',
  columns: readonly Column<Row>[],
  rows: readonly Row[],
): void {
  const cells = rows.map((row) => columns.map((column) => column.value(row)))
  if (format === 'csv') {
    const fields: SqlField[] = columns.map((column) => ({
      name: column.name,
      dataType: '',
      display: column.numeric === true ? 'number' : 'text',
    }))
    for (const chunk of formatResult('csv', fields, cells, { headers: true })) {
      process.stdout.write(chunk)
    }
    return
  }
  const texts = cells.map((row) => row.map((cell) => (cell === null ? '' : String(cell))))
  const widths = columns.map((column, index) =>
    Math.max(column.name.length, ...texts.map((row) => (row[index] ?? '').length)),
  )
  const line = (row: readonly string[]) =>
    row
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd()
  const header = line(columns.map((column) => column.name))
  writeOut(styleText('bold', header, { stream: process.stdout }))
  for (const row of texts) writeOut(line(row))
}
