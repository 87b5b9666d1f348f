import { parseSqlAnswer, type ParsedResult } from './parse-result'

/*
 * The first rows of an op 5 answer without parsing the rest: the grid paints them while main
 * parses the whole answer (25 MB for 100,000 rows × 20 columns takes JSON.parse about a
 * second on a busy machine). Works on the usual layout, where `fields` and the other meta come
 * before `rows` and rows are arrays; anything else returns null and the caller parses the
 * whole answer first.
 */

export interface FirstPage {
  /** The answer's meta and its first rows, parsed as the whole answer would be. */
  result: ParsedResult
  /** True when these are all the rows (the array ended within the page). */
  complete: boolean
}

const ROWS_KEY = '"rows":'

export function readFirstPage(text: string, count: number): FirstPage | null {
  const key = text.indexOf(ROWS_KEY)
  if (key === -1) return null
  let index = skipSpace(text, key + ROWS_KEY.length)
  if (text[index] !== '[') return null
  index += 1
  const rows: string[] = []
  let complete = false
  while (rows.length < count) {
    index = skipSpace(text, index)
    if (text[index] === ']') {
      complete = true
      break
    }
    const end = endOfValue(text, index)
    if (end === -1) return null
    rows.push(text.slice(index, end))
    index = skipSpace(text, end)
    if (text[index] === ',') index += 1
    else if (text[index] === ']') {
      complete = true
      break
    } else return null
  }
  // The head up to "rows" plus these rows is a whole answer of its own. If "rows" was not the
  // data object's key (it sat in a string or deeper), this does not parse, and we give up.
  let result: ParsedResult
  try {
    result = parseSqlAnswer(`${text.slice(0, key)}${ROWS_KEY}[${rows.join(',')}]}}`)
  } catch {
    return null
  }
  // The head describes the columns only when the service listed them before the rows and the
  // rows are arrays: object rows (or fields after the rows) may bring columns that later rows
  // add, so such an answer is parsed whole before its columns are told.
  const described =
    result.columnsFrom === 'fields' && (result.rowShape === 'arrays' || result.rowShape === 'none')
  return described ? { result, complete } : null
}

/** Heads of the answer tried for its first rows: decoding all 25 MB on main took ~150 ms. */
const HEAD_BYTES = [256 * 1024, 4 * 1024 * 1024]

/**
 * readFirstPage on the answer's bytes, decoding only a head of them (the smallest that holds
 * the first rows); null when no head up to the largest does, or the layout is not the usual one.
 */
export function readFirstPageOfBytes(body: Buffer, count: number): FirstPage | null {
  for (const size of HEAD_BYTES) {
    // A row cut by the head's end lacks its closing bracket: readFirstPage gives up on it (then
    // the next head is tried), so a head never passes off part of a row as the row.
    const page = readFirstPage(body.toString('utf8', 0, Math.min(size, body.byteLength)), count)
    if (page !== null || body.byteLength <= size) return page
  }
  return null
}

function skipSpace(text: string, index: number): number {
  while (index < text.length && /\s/.test(text[index]!)) index += 1
  return index
}

/** The index just past the JSON value starting at `start`, or -1 when it does not end. */
function endOfValue(text: string, start: number): number {
  let depth = 0
  let index = start
  while (index < text.length) {
    const char = text[index]!
    if (char === '"') {
      index = endOfString(text, index)
      if (index === -1) return -1
      if (depth === 0) return index
      continue
    }
    if (char === '[' || char === '{') depth += 1
    else if (char === ']' || char === '}') {
      depth -= 1
      if (depth < 0) return -1
      if (depth === 0) return index + 1
    } else if (depth === 0 && (char === ',' || /\s/.test(char))) {
      return index
    }
    index += 1
  }
  return -1
}

function endOfString(text: string, open: number): number {
  let index = open + 1
  for (;;) {
    const quote = text.indexOf('"', index)
    if (quote === -1) return -1
    let backslashes = 0
    for (let back = quote - 1; text[back] === '\\'; back -= 1) backslashes += 1
    if (backslashes % 2 === 0) return quote + 1
    index = quote + 1
  }
}
