/*
 * The one CSV field writer for every CSV made from data a service or the activity log handed
 * us (the audit export, the Expiring export, the CLI's `--csv`, the SQL console's CSV copy and
 * save). Plain TypeScript without Node or DOM imports, so main, the CLI and the renderer share it.
 */

/**
 * A text a spreadsheet would run as a formula (CSV injection): `=`, `+`, `-`, `@`, tab or CR
 * first, also after leading whitespace (spreadsheets trim it before they look). `-1+1+cmd|…`
 * starts with a digit after the minus and is still a formula, so only a whole plain decimal
 * (`-35`, `-0.5`) counts as a number: it can never be a formula, and it stays one in a sheet.
 */
export function isSpreadsheetFormula(value: string): boolean {
  return /^\s*[=+\-@\t\r]/.test(value) && !/^-\d+(\.\d+)?$/.test(value)
}

/**
 * One CSV field (RFC 4180): null is an empty field, the empty string a quoted "" so the two stay
 * apart; a formula gets a leading `'` (which a spreadsheet shows as text and hides); a field with
 * a quote, comma, CR, LF or edge whitespace is quoted, its quotes doubled.
 */
export function csvField(value: string | null): string {
  if (value === null) return ''
  const defused = isSpreadsheetFormula(value) ? `'${value}` : value
  if (defused === '' || /[",\r\n]/.test(defused) || /^\s|\s$/.test(defused)) {
    return `"${defused.replace(/"/g, '""')}"`
  }
  return defused
}

/** A CSV record: the fields through `csvField`, comma-separated, CRLF-terminated. */
export function csvLine(values: readonly (string | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}
