import { styleText } from 'node:util'
import type { SqlField } from '../shared/bridge/channels/sql'
import { formatResult } from '../main/sql/formats'
import { visibleControls } from '../shared/terminal-text'

/*
 * What the commands print. Data goes to stdout (JSON, CSV or an aligned table), everything for
 * people to stderr, so a pipe gets only the data. Colour only on a terminal and never with
 * NO_COLOR: node:util's styleText checks both (and FORCE_COLOR) for the stream it writes to.
 *
 * Names, ids, messages and errors are a service's or the activity log's text and may carry
 * terminal escapes (ESC[2J, OSC 52, a bare CR): tables, notes and errors show every control but
 * tab as a visible escape (shared/terminal-text.ts). Data written to a terminal is shown the
 * same way (its lines kept); data written to a pipe or a file is kept whole.
 */

export type ListFormat = 'table' | 'json' | 'csv'

/** Data on stdout: whole to a pipe or a file; on a terminal with its controls made visible. */
export function writeOut(text: string): void {
  const ended = text.endsWith('\n') || text === '' ? text : `${text}\n`
  process.stdout.write(
    process.stdout.isTTY === true
      ? // CRLF ends a CSV record: on a terminal it is a line break, not a CR to show.
        visibleControls(ended.replace(/\r\n/g, '\n'), { keepNewlines: true })
      : ended,
  )
}

/**
 * JSON.stringify escapes C0 but leaves DEL and C1 (U+009B is CSI to some terminals) raw: they
 * can only stand inside strings, so writing them as \u escapes is the same JSON, pipe or not.
 */
export function writeJson(value: unknown): void {
  writeOut(
    JSON.stringify(value, null, 2).replace(
      /[\u007f-\u009f]/g,
      (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  )
}

/** A note for the person at the terminal (stderr), dimmed where colour is allowed. */
export function note(text: string): void {
  const line = visibleControls(text)
  process.stderr.write(`${styleText('dim', line, { stream: process.stderr })}\n`)
}

/** The one-line reason of a failure, on stderr. */
export function writeError(message: string): void {
  const line = visibleControls(message.replace(/\s*\n\s*/g, ' '))
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
    for (const chunk of formatResult('csv', fields, cells, { headers: true })) writeOut(chunk)
    return
  }
  // A cell is one line: its line breaks are shown too, so a row stays a row.
  const texts = cells.map((row) =>
    row.map((cell) => (cell === null ? '' : visibleControls(String(cell)))),
  )
  const widths = columns.map((column, index) =>
    Math.max(column.name.length, ...texts.map((row) => (row[index] ?? '').length)),
  )
  const line = (row: readonly string[]) =>
    row
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd()
  const header = line(columns.map((column) => visibleControls(column.name)))
  process.stdout.write(`${styleText('bold', header, { stream: process.stdout })}\n`)
  for (const row of texts) process.stdout.write(`${line(row)}\n`)
}
