import { z } from 'zod'
import { APP_ERROR_CODES } from '../../shared/bridge'
import type { SqlField } from '../../shared/bridge/channels/sql'
import { builtInTypeName } from '../../shared/sql/pg-types'
import { ServiceError } from '../api'
import { CutValue, ExactNumber, serviceValue } from './values'

/*
 * Op 5's answer, parsed once. The spec leaves the shape of the result open, so every
 * reasonable shape is read (docs/SERVICE.md, "Op 5 — SQL results"):
 * - rows as arrays with `fields: [{ name, dataType }]` (the sandbox);
 * - rows as objects with no field list: the columns are the keys in first-seen order;
 * - node-postgres's `fields: [{ name, dataTypeID }]` (type OIDs, named from one shared table);
 * - `data` itself an array of rows;
 * - the service's time under another name (`tookMs`, `elapsedMs`, `executionTimeMs`...);
 * - no command tag;
 * - a real deployment's `{results: [{command, rowCount, durationMs, fields: [names], rows:
 *   [objects], truncated, maxRows}], truncated, resultLimit}`: one result per statement, each
 *   run on its own. One result is read per parse (`pick`); a read-only run's own BEGIN and
 *   ROLLBACK (`wrapped`) are not the user's results. Its values: bytea as a Buffer's JSON
 *   (shown as \x hex, as psql does), a value it cut as `{preview, truncated: true}`, and a
 *   member it left out of a cut row (shown as cut, never as NULL).
 * Rows that mix arrays and objects are read when a field list names the arrays' columns and
 * refused, saying so, when none does. The envelope, the meta and the field list are
 * validated with zod; the rows are not walked by a schema (100,000 rows × 20 cells would cost
 * more than the request) and are kept as JSON.parse made them.
 */

export interface ParsedResult {
  command: string
  rowCount: number | null
  fields: SqlField[]
  rows: unknown[][]
  truncated: boolean
  /**
   * What cut the result: the row limit asked (maxRows), or the service's size limit (a real
   * deployment's 512 KiB of rows per result; its note says it in words). Null when not cut.
   */
  truncatedBy: 'rows' | 'size' | null
  durationMs: number | null
  /** Where the column names came from: the service's field list, or the rows themselves. */
  columnsFrom: 'fields' | 'rows'
  /** How the rows came: as arrays, as objects, both, or none at all. */
  rowShape: 'arrays' | 'objects' | 'mixed' | 'none'
  /** What the app read in a way the user should know of (shown with the result). */
  notes: string[]
  /** How the service answered: one result, or one per statement (`results[]`). */
  answer: AnswerInfo
}

export interface AnswerInfo {
  shape: 'single' | 'results'
  /** The user's results in the answer (a read-only run's BEGIN and ROLLBACK not counted). */
  results: number
  /** The most statements the service runs per request, when it says (`resultLimit`). */
  resultLimit: number | null
}

export interface ParseOptions {
  /** The text was sent as `BEGIN TRANSACTION READ ONLY; …; ROLLBACK`: those two are not shown. */
  wrapped?: boolean
  /** Which of the user's results to read (0-based); the last when not given. */
  pick?: number
}

const fieldSchema = z.union([
  z.string(),
  z.looseObject({
    name: z.string(),
    dataType: z.unknown().optional(),
    dataTypeID: z.unknown().optional(),
    type: z.unknown().optional(),
  }),
])
type RawField = z.infer<typeof fieldSchema>

const optionalNumber = z.number().nullable().optional()
const dataSchema = z.looseObject({
  command: z.string().nullable().optional(),
  rowCount: optionalNumber,
  fields: z.array(fieldSchema).nullable().optional(),
  rows: z.array(z.unknown()).nullable().optional(),
  truncated: z.boolean().nullable().optional(),
})
const envelopeSchema = z.looseObject({ data: z.union([z.array(z.unknown()), dataSchema]) })

/**
 * Names under which a service may report its own time for the statement, in milliseconds,
 * first found wins. A bare `duration`/`took`/`elapsed` is read as milliseconds too (what
 * node-postgres wrappers and most services send); a string such as "12 ms" or "1.5s" is read
 * with its unit.
 */
const TIMING_KEYS = [
  'durationMs',
  'tookMs',
  'elapsedMs',
  'executionTimeMs',
  'executionMs',
  'timeMs',
  'queryTimeMs',
  'duration',
  'took',
  'elapsed',
  'executionTime',
  'time',
] as const

export function parseSqlAnswer(text: string, options: ParseOptions = {}): ParsedResult {
  const fast = shapeAnswer(parseJson(text), options)
  // JSON.parse without a reviver is several times faster; the source text of numbers is only
  // needed when a value shows that a double may have changed it. Then the answer is parsed
  // once more, keeping those numbers' text.
  return needsExactNumbers(fast) ? shapeAnswer(parseJson(text, keepExactNumbers), options) : fast
}

function parseJson(text: string, reviver?: typeof keepExactNumbers): unknown {
  try {
    return reviver ? (JSON.parse(text, reviver) as unknown) : (JSON.parse(text) as unknown)
  } catch {
    throw badAnswer('the body is not JSON')
  }
}

function shapeAnswer(body: unknown, options: ParseOptions): ParsedResult {
  const parsed = envelopeSchema.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw badAnswer(`${issue?.path.join('.') || '(body)'}: ${issue?.message ?? 'unexpected shape'}`)
  }
  if (!Array.isArray(parsed.data.data) && Array.isArray(parsed.data.data['results'])) {
    return shapeResults(parsed.data.data, options)
  }
  const data = Array.isArray(parsed.data.data) ? { rows: parsed.data.data } : parsed.data.data
  return {
    ...shapeResult(data, false),
    answer: { shape: 'single', results: 1, resultLimit: null },
  }
}

const resultsSchema = z.looseObject({
  results: z.array(dataSchema),
  truncated: z.boolean().nullable().optional(),
  resultLimit: z.number().int().positive().nullable().optional(),
})

/** One of the user's results of a `results[]` answer, with what the service cut said in words. */
function shapeResults(data: Record<string, unknown>, options: ParseOptions): ParsedResult {
  const parsed = resultsSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw badAnswer(`data.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'unexpected shape'}`)
  }
  const answerCut = parsed.data.truncated === true
  let results = parsed.data.results
  const notes: string[] = []
  if (options.wrapped) {
    if (results[0]?.command?.toUpperCase() === 'BEGIN') results = results.slice(1)
    else notes.push("The service's answer does not start with the read-only transaction's BEGIN.")
    const last = results[results.length - 1]
    if (last?.command?.toUpperCase() === 'ROLLBACK') results = results.slice(0, -1)
    else if (!answerCut) {
      notes.push("The service's answer does not end with the read-only transaction's ROLLBACK.")
    }
  }
  const answer: AnswerInfo = {
    shape: 'results',
    results: results.length,
    resultLimit: parsed.data.resultLimit ?? null,
  }
  const index = options.pick ?? results.length - 1
  const chosen = results[index]
  if (chosen === undefined) {
    if (!answerCut) throw badAnswer(`data.results holds no result ${index + 1}`)
    // The service stopped its answer before this statement's result (768 KiB on a real one).
    return {
      ...shapeResult({}, false),
      command: '',
      notes: [
        "The service cut its answer at its size limit before this statement's result: the statement ran, but its result was not sent.",
      ],
      answer,
    }
  }
  if (options.pick === undefined && results.length > 1) {
    const others = results
      .slice(0, -1)
      .map((result) => `${result.command || 'statement'}${countOf(result.rowCount)}`)
    notes.push(
      `The service answered ${results.length} results for this text; this is the last. The others: ${others.join('; ')}.`,
    )
  }
  const shaped = shapeResult(chosen, true)
  shaped.notes.push(...notes)
  if (answerCut && index === results.length - 1) {
    shaped.notes.push(
      'The service cut its answer at its size limit after this result: the results of later statements were not sent.',
    )
  }
  return { ...shaped, answer }
}

function countOf(rowCount: number | null | undefined): string {
  return typeof rowCount === 'number' ? ` (${rowCount} ${rowCount === 1 ? 'row' : 'rows'})` : ''
}

function shapeResult(
  data: z.infer<typeof dataSchema>,
  perStatement: boolean,
): Omit<ParsedResult, 'answer'> {
  const rawRows = data.rows ?? []
  const listed = (data.fields ?? []).map(fieldOf)
  const columns = columnsOf(
    listed.map((field) => field.name),
    rawRows,
  )
  const truncated = data.truncated ?? false
  const rows = rowsOf(rawRows, columns.names, { perStatement, cut: perStatement && truncated })
  const fields = columns.names.map((name, column) => {
    const dataType = listed[column]?.dataType ?? ''
    return { name, dataType, display: displayOf(dataType, rows, column) }
  })
  const notes = [...columns.notes]
  const cut = perStatement && truncated ? cutNotes(data, rows) : null
  if (cut !== null) notes.push(...cut.notes)
  return {
    command: data.command ?? '',
    rowCount: data.rowCount ?? null,
    fields,
    rows,
    truncated,
    truncatedBy: cut !== null ? cut.by : truncated ? 'rows' : null,
    durationMs: timingOf(data),
    columnsFrom: listed.length > 0 ? 'fields' : 'rows',
    rowShape: columns.shape,
    notes,
  }
}

/**
 * Why a per-statement result says `truncated`, in words: the service stopped at maxRows (the
 * console says that on its own), cut the rows at its size limit (512 KiB of rows on a real
 * deployment), or cut values to fit it.
 */
function cutNotes(
  data: z.infer<typeof dataSchema>,
  rows: unknown[][],
): { notes: string[]; by: 'rows' | 'size' } {
  const maxRows = typeof data['maxRows'] === 'number' ? data['maxRows'] : null
  const rowCount = data.rowCount ?? null
  const notes: string[] = []
  const cutValues = rows.reduce(
    (count, row) => count + row.filter((value) => value instanceof CutValue).length,
    0,
  )
  const belowMaxRows = maxRows === null || rows.length < maxRows
  if (belowMaxRows && rowCount !== null && rows.length < rowCount) {
    notes.push(
      `The service cut this result at its size limit (512 KiB of rows on a real deployment): ${rows.length} of ${rowCount} rows are here.`,
    )
  }
  if (cutValues > 0) {
    notes.push(
      `The service cut ${cutValues === 1 ? 'a value' : `${cutValues} values`} of this result to fit its size limit: ${cutValues === 1 ? 'it is' : 'they are'} marked "cut by the service".`,
    )
  }
  const byRows = notes.length === 0 && maxRows !== null && rows.length >= maxRows
  if (notes.length === 0 && !byRows) {
    notes.push(
      'The service says it cut this result to fit its size limit: a text value of the last row may be shorter than in the database (the service marks nothing).',
    )
  }
  return { notes, by: byRows ? 'rows' : 'size' }
}

/** A field as the service described it: a name, and a type by name or by OID. */
function fieldOf(field: RawField): { name: string; dataType: string } {
  if (typeof field === 'string') return { name: field, dataType: '' }
  for (const type of [field.dataType, field.type, field.dataTypeID]) {
    if (typeof type === 'string' && type !== '') return { name: field.name, dataType: type }
    if (typeof type === 'number') {
      return { name: field.name, dataType: builtInTypeName(type) ?? '' }
    }
  }
  return { name: field.name, dataType: '' }
}

/**
 * The result's columns: the service's field list, then any key of an object row it did not
 * list (first-seen order), then numbered columns for array cells past the last name.
 */
function columnsOf(
  listed: string[],
  rows: unknown[],
): { names: string[]; shape: ParsedResult['rowShape']; notes: string[] } {
  const names = [...listed]
  const known = new Set(listed)
  let firstArray = -1
  let firstObject = -1
  let widest = 0
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index]
    if (Array.isArray(row)) {
      if (firstArray === -1) firstArray = index
      if (row.length > widest) widest = row.length
    } else if (typeof row === 'object' && row !== null) {
      if (firstObject === -1) firstObject = index
      for (const key in row) {
        if (!known.has(key)) {
          known.add(key)
          names.push(key)
        }
      }
    } else {
      throw badAnswer(`rows.${index} is neither an array nor an object`)
    }
  }
  const notes: string[] = []
  if (firstArray !== -1 && firstObject !== -1 && listed.length === 0) {
    // Without names for the arrays' positions, any pairing with the objects' keys is a guess.
    throw badAnswer(
      `rows mix arrays (rows.${firstArray}) and objects (rows.${firstObject}) and there is no ` +
        "field list, so the arrays' columns cannot be named",
    )
  }
  if (firstArray !== -1 && firstObject !== -1) {
    notes.push(
      'The service sent some rows as arrays and some as objects; both were read by the field list.',
    )
  }
  for (let column = names.length; column < widest; column += 1) names.push(`column ${column + 1}`)
  if (firstArray !== -1 && listed.length < widest) {
    notes.push(
      listed.length === 0
        ? 'The service sent no field list: the columns are numbered.'
        : `The service named ${listed.length} columns but sent rows of ${widest} values: the others are numbered.`,
    )
  }
  if (firstObject !== -1) {
    const repeated = listed.filter((name, index) => listed.indexOf(name) !== index)
    if (repeated.length > 0) {
      notes.push(
        `Columns named ${[...new Set(repeated)].join(', ')} appear more than once; the service's ` +
          'rows are objects, which hold one value per name, so each such column shows that one value.',
      )
    }
  }
  const shape =
    firstArray !== -1 && firstObject !== -1
      ? 'mixed'
      : firstArray !== -1
        ? 'arrays'
        : firstObject !== -1
          ? 'objects'
          : 'none'
  return { names, shape, notes }
}

/**
 * Rows as arrays in column order; object rows are read by name. A missing key is NULL, except
 * in a result the service says it cut: there a member it left out is a cut value, not NULL.
 * Values a real deployment encodes (a Buffer's JSON, a cut value's preview) are read as such.
 */
function rowsOf(
  rawRows: unknown[],
  names: string[],
  options: { perStatement: boolean; cut: boolean },
): unknown[][] {
  const rows: unknown[][] = new Array<unknown[]>(rawRows.length)
  const missing = options.cut ? new CutValue('') : null
  // Other answers' values are kept as JSON.parse made them (100,000 rows are not walked twice).
  const read = options.perStatement ? serviceValue : (value: unknown) => value
  for (let index = 0; index < rawRows.length; index += 1) {
    const row = rawRows[index]
    if (Array.isArray(row)) rows[index] = options.perStatement ? row.map(read) : row
    else {
      const record = row as Record<string, unknown>
      rows[index] = names.map((name) =>
        Object.hasOwn(record, name) ? read(record[name]) : missing,
      )
    }
  }
  return rows
}

/** The service's own time for the statement, in ms, under whichever name it used. */
function timingOf(data: Record<string, unknown>): number | null {
  for (const key of TIMING_KEYS) {
    const value = data[key]
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value
    if (typeof value === 'string') {
      const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/i.exec(value)
      if (match) return Number(match[1]) * (match[2]?.toLowerCase() === 's' ? 1000 : 1)
    }
  }
  return null
}

/** Types whose text carries meaning a double loses: scale (1.10) and every digit. */
const EXACT_TYPES = new Set(['numeric', 'decimal', 'money', 'int8', 'bigint'])

/**
 * True when a cell is a JSON number that may not be what the service wrote: an integer past
 * 2^53, a fraction with 17 or more characters, or any number in a numeric/int8 column (1.10
 * would read back as 1.1). Numbers nested inside JSON values are not walked.
 */
function needsExactNumbers(result: ParsedResult): boolean {
  const exactColumns = result.fields.map((field) => EXACT_TYPES.has(field.dataType.toLowerCase()))
  for (const row of result.rows) {
    for (let column = 0; column < row.length; column += 1) {
      const value = row[column]
      if (typeof value !== 'number') continue
      if (exactColumns[column]) return true
      if (Number.isInteger(value) ? !Number.isSafeInteger(value) : String(value).length >= 17) {
        return true
      }
    }
  }
  return false
}

interface ReviverContext {
  source?: string
}

/** JSON.parse reviver (Node 22+, Chromium): a number whose text a double would not give back keeps it. */
function keepExactNumbers(this: unknown, _key: string, value: unknown, context?: ReviverContext) {
  if (typeof value !== 'number' || context?.source === undefined) return value
  // 1.10 keeps its scale, 9007199254740993 its last digit, 1e2 its spelling: as sent.
  return String(value) === context.source ? value : new ExactNumber(context.source)
}

const NUMBER_TYPES = new Set([
  'int2',
  'int4',
  'int8',
  'smallint',
  'integer',
  'bigint',
  'float4',
  'float8',
  'real',
  'double precision',
  'numeric',
  'decimal',
  'oid',
  'money',
])

function displayOf(dataType: string, rows: unknown[][], column: number): SqlField['display'] {
  const type = dataType.toLowerCase()
  if (NUMBER_TYPES.has(type)) return 'number'
  if (type === 'json' || type === 'jsonb') return 'json'
  if (type === 'bool' || type === 'boolean') return 'boolean'
  if (type !== '' && type !== 'unknown') return 'text'
  // No type from the service: the first non-null value decides, except that strings are
  // numbers when every one is written as PostgreSQL writes an int8 or a numeric.
  for (const row of rows) {
    const value = row[column]
    if (value === null || value === undefined || value instanceof CutValue) continue
    if (typeof value === 'number' || value instanceof ExactNumber) return 'number'
    if (typeof value === 'boolean') return 'boolean'
    if (typeof value === 'string') return allNumberText(rows, column) ? 'number' : 'text'
    if (typeof value === 'object') return 'json'
    return 'text'
  }
  return 'text'
}

/**
 * PostgreSQL's text of an int8 or a numeric: an optional minus, no leading zeros, no '+', no
 * exponent (`-12`, `0.50`, `9007199254740993`), or numeric's NaN and ±Infinity. A service
 * that names no types (a real deployment sends only column names) sends these as strings.
 */
const POSTGRES_NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/
const POSTGRES_SPECIAL_NUMBERS = new Set(['NaN', 'Infinity', '-Infinity'])

/**
 * True when every non-null string of the column is PostgreSQL's text of a number and at least
 * one is not NaN/Infinity. Such a column is shown right-aligned and sorted by value, exactly
 * (sort-order.ts compares the digits; no double is made of them); its text is kept as sent.
 * A text column of such strings (ids written as digits) then sorts as numbers too, which is
 * the order their values have; a leading zero ('007') or any other character keeps a column
 * text.
 */
function allNumberText(rows: unknown[][], column: number): boolean {
  let digits = false
  for (const row of rows) {
    const value = row[column]
    if (value === null || value === undefined || value instanceof CutValue) continue
    if (typeof value !== 'string') return false
    if (POSTGRES_NUMBER_TEXT.test(value)) digits = true
    else if (!POSTGRES_SPECIAL_NUMBERS.has(value)) return false
  }
  return digits
}

function badAnswer(what: string): ServiceError {
  return new ServiceError(
    APP_ERROR_CODES.BAD_RESPONSE,
    `The service's answer to runPostgresQuery (operation 5) is not usable: ${what}`,
  )
}
