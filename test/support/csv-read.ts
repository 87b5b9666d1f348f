/*
 * CSV read back apart from the app's writer (RFC 4180: quoted fields may hold commas, doubled
 * quotes and line breaks), so that a test checks the file, not the writer against itself.
 */

export interface CsvReading {
  /**
   * `crlf`: a record ends with CRLF only, as RFC 4180 and the app's files have it; a bare LF is
   * text of the field, and a file that does not end with CRLF is refused. `any`: CRLF or LF,
   * the last line's end optional (what the CLI prints to a terminal or pipe).
   */
  recordEnd: 'crlf' | 'any'
}

/** The text's records, each a list of fields. */
export function readCsv(text: string, { recordEnd }: CsvReading = { recordEnd: 'crlf' }) {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  const endRecord = () => {
    record.push(field)
    records.push(record)
    record = []
    field = ''
  }
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string
    const crlf = char === '\r' && text[index + 1] === '\n'
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"'
        index += 1
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      record.push(field)
      field = ''
    } else if (crlf || (recordEnd === 'any' && (char === '\n' || char === '\r'))) {
      if (crlf) index += 1
      endRecord()
    } else field += char
  }
  if (field !== '' || record.length > 0) {
    if (recordEnd === 'crlf') throw new Error('the file does not end with CRLF')
    endRecord()
  }
  return records
}
