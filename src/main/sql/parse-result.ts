import { z } from 'zod'
import { APP_ERROR_CODES } from '../../shared/bridge'
import type { SqlField } from '../../shared/bridge/channels/sql'
import { ServiceError } from '../api'
import { ExactNumber } from './values'

/*
 * Op 5's answer, parsed once. The envelope, the meta and the field list are validated with
 * zod; the rows are not walked by a schema (100,000 rows × 20 cells would cost more than the
 * request): they are checked to be arrays (or objects, which a real service may send, turned
 * into arrays by the field names) and kept as JSON.parse made them.
 */

export interface ParsedResult {
  command: string
  rowCount: number | null
  fields: SqlField[]
  rows: unknown[][]
  truncated: boolean
  durationMs: number | null
}

const metaSchema = z.looseObject({
  data: z.looseObject({
    command: z.string().nullable().optional(),
    rowCount: z.number().nullable().optional(),
    fields: z
      .array(z.looseObject({ name: z.string(), dataType: z.unknown().optional() }))
      .optional(),
    rows: z.array(z.unknown()).optional(),
    truncated: z.boolean().optional(),
    durationMs: z.number().nullable().optional(),
  }),
})

export function parseSqlAnswer(text: string): ParsedResult {
  const fast = shapeAnswer(parseJson(text))
  // JSON.parse without a reviver is several times faster; the source text of numbers is only
  // needed when a value shows that a double may have changed it. Then the answer is parsed
  // once more, keeping those numbers' text.
  return needsExactNumbers(fast) ? shapeAnswer(parseJson(text, keepExactNumbers)) : fast
}

function parseJson(text: string, reviver?: typeof keepExactNumbers): unknown {
  try {
    return reviver ? (JSON.parse(text, reviver) as unknown) : (JSON.parse(text) as unknown)
  } catch {
    throw badAnswer('the body is not JSON')
  }
}

function shapeAnswer(body: unknown): ParsedResult {
  const parsed = metaSchema.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw badAnswer(`${issue?.path.join('.') || '(body)'}: ${issue?.message ?? 'unexpected shape'}`)
  }
  const data = parsed.data.data
  const rawFields = data.fields ?? []
  const rawRows = data.rows ?? []
  const names = rawFields.map((field) => field.name)
  const rows: unknown[][] = new Array<unknown[]>(rawRows.length)
  for (let index = 0; index < rawRows.length; index += 1) {
    const row = rawRows[index]
    if (Array.isArray(row)) rows[index] = row
    else if (typeof row === 'object' && row !== null) {
      rows[index] = names.map((name) => (row as Record<string, unknown>)[name] ?? null)
    } else throw badAnswer(`rows.${index} is neither an array nor an object`)
  }
  const fields = rawFields.map((field, column) => {
    const dataType = typeof field.dataType === 'string' ? field.dataType : ''
    return { name: field.name, dataType, display: displayOf(dataType, rows, column) }
  })
  return {
    command: data.command ?? '',
    rowCount: data.rowCount ?? null,
    fields,
    rows,
    truncated: data.truncated ?? false,
    durationMs: data.durationMs ?? null,
  }
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
  // No type from the service: the first non-null value decides.
  for (const row of rows) {
    const value = row[column]
    if (value === null || value === undefined) continue
    if (typeof value === 'number' || value instanceof ExactNumber) return 'number'
    if (typeof value === 'boolean') return 'boolean'
    if (typeof value === 'object') return 'json'
    return 'text'
  }
  return 'text'
}

function badAnswer(what: string): ServiceError {
  return new ServiceError(
    APP_ERROR_CODES.BAD_RESPONSE,
    `The service's answer to runPostgresQuery (operation 5) is not usable: ${what}`,
  )
}
