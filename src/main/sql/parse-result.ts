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

/**
 * A digit run this long can only be a number a double may not hold exactly (or digits inside
 * a string, which merely sends the text down the exact path for nothing). Testing the text
 * first keeps the common answer on JSON.parse's fast path without a reviver.
 */
const LONG_DIGITS = /\d{16,}/

export function parseSqlAnswer(text: string): ParsedResult {
  let body: unknown
  try {
    body = LONG_DIGITS.test(text) ? JSON.parse(text, keepExactNumbers) : JSON.parse(text)
  } catch {
    throw badAnswer('the body is not JSON')
  }
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

interface ReviverContext {
  source?: string
}

/** JSON.parse reviver (Node 22+, Chromium): numbers a double would change keep their text. */
function keepExactNumbers(this: unknown, _key: string, value: unknown, context?: ReviverContext) {
  if (typeof value !== 'number' || context?.source === undefined) return value
  if (Number.isSafeInteger(value) && /^-?\d+$/.test(context.source)) return value
  return canonicalNumber(context.source) === canonicalNumber(String(value))
    ? value
    : new ExactNumber(context.source)
}

/** A number's text as significant digits and exponent: 1.50, 15e-1 and 1.5 read the same. */
function canonicalNumber(text: string): string {
  const [mantissa = '', exponent = '0'] = text.toLowerCase().split('e')
  const sign = mantissa.startsWith('-') ? '-' : ''
  const [integer = '', fraction = ''] = mantissa.replace(/^[-+]/, '').split('.')
  const digits = integer + fraction
  const first = digits.search(/[1-9]/)
  if (first === -1) return '0'
  const significant = digits.slice(first).replace(/0+$/, '')
  return `${sign}${significant}e${integer.length - first - 1 + Number(exponent)}`
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
