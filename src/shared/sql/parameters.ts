import type { SqlPlaceholder } from '../bridge/channels/sql'

/*
 * Named parameters of the SQL console: `:name` placeholders in the editor's text, filled from a
 * small form before the statement is sent. The service takes only SQL text (no bind
 * parameters), so each value is written into the statement as a PostgreSQL literal: always
 * quoted, always with an explicit cast (`'O''Brien'::text`, `NULL::integer`,
 * `'2024-01-01'::date`), validated for its type first. A value can therefore never become SQL
 * of its own: it is one string token and its cast, whatever it holds.
 *
 * Placeholders are found in main with PostgreSQL's own scanner (sql-guard/placeholders.ts, given
 * with each statement by `sql.plan`), so a `:name` inside a string, a quoted identifier, a
 * comment or a dollar quote is text, and `::cast`, `:=` and array slices (`a[1:n]`) are not
 * placeholders. Identifiers cannot be parameters: a placeholder where a table or column name
 * goes is refused when values are bound, since a literal there would be an error at best.
 */

export const PARAMETER_TYPES = [
  'text',
  'integer',
  'numeric',
  'boolean',
  'date',
  'timestamp',
  'uuid',
  'null',
] as const
export type ParameterType = (typeof PARAMETER_TYPES)[number]

export function isParameterType(value: string): value is ParameterType {
  return (PARAMETER_TYPES as readonly string[]).includes(value)
}

export type Placeholder = SqlPlaceholder

/** A value a user cannot send as the type they chose; `message` is for them. */
export class ParameterValueError extends Error {
  constructor(
    message: string,
    readonly parameter: string | null = null,
  ) {
    super(message)
    this.name = 'ParameterValueError'
  }
}

/** One value (null: SQL NULL) or, for `IN (:ids)`, a list of them. */
export type ParameterBinding =
  | { type: ParameterType; value: string | null }
  | { type: ParameterType; list: readonly (string | null)[] }

const INT4_MIN = -(2n ** 31n)
const INT4_MAX = 2n ** 31n - 1n
const INT8_MIN = -(2n ** 63n)
const INT8_MAX = 2n ** 63n - 1n

const INTEGER = /^[+-]?[0-9]+$/
const NUMERIC = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/
const NUMERIC_SPECIAL = /^(?:NaN|[+-]?Infinity)$/i
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/
const TIMESTAMP =
  /^([0-9]{4}-[0-9]{2}-[0-9]{2})[ T]([01][0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9])(?:\.[0-9]{1,6})?)?(Z|[+-](?:[01][0-9]|2[0-3])(?::?[0-5][0-9])?)?$/i
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TRUE_WORDS = new Set(['true', 't', 'yes', 'y', 'on', '1'])
const FALSE_WORDS = new Set(['false', 'f', 'no', 'n', 'off', '0'])

/**
 * A value as a PostgreSQL literal with an explicit cast. Throws ParameterValueError when the
 * value is not one of its type (with a message that says what was expected).
 */
export function toLiteral(type: ParameterType, value: string | null): string {
  if (type === 'null') return 'NULL'
  if (value === null) return `NULL::${castOf(type, null)}`
  switch (type) {
    case 'text':
      return `${quoteString(value)}::text`
    case 'integer': {
      const trimmed = value.trim()
      if (!INTEGER.test(trimmed))
        throw new ParameterValueError(`"${shorten(value)}" is not a whole number`)
      const number = BigInt(trimmed)
      if (number < INT8_MIN || number > INT8_MAX) {
        throw new ParameterValueError(
          `${shorten(trimmed)} is too large for an integer; choose numeric`,
        )
      }
      return `'${number.toString()}'::${castOf('integer', number)}`
    }
    case 'numeric': {
      const trimmed = value.trim()
      if (!NUMERIC.test(trimmed) && !NUMERIC_SPECIAL.test(trimmed)) {
        throw new ParameterValueError(`"${shorten(value)}" is not a number (e.g. 12.50 or 1e-3)`)
      }
      return `'${trimmed}'::numeric`
    }
    case 'boolean': {
      const word = value.trim().toLowerCase()
      if (TRUE_WORDS.has(word)) return `'true'::boolean`
      if (FALSE_WORDS.has(word)) return `'false'::boolean`
      throw new ParameterValueError(`"${shorten(value)}" is not true or false`)
    }
    case 'date': {
      const trimmed = value.trim()
      if (!isCalendarDate(trimmed)) {
        throw new ParameterValueError(`"${shorten(value)}" is not a date (YYYY-MM-DD)`)
      }
      return `'${trimmed}'::date`
    }
    case 'timestamp': {
      const trimmed = value.trim()
      const match = TIMESTAMP.exec(trimmed)
      if (match === null || !isCalendarDate(match[1]!)) {
        throw new ParameterValueError(
          `"${shorten(value)}" is not a timestamp (YYYY-MM-DD HH:MM[:SS][+offset])`,
        )
      }
      // With an offset the moment is exact: timestamptz; without, a wall-clock timestamp.
      return `'${trimmed}'::${match[5] === undefined ? 'timestamp' : 'timestamptz'}`
    }
    case 'uuid': {
      const trimmed = value.trim()
      if (!UUID.test(trimmed)) throw new ParameterValueError(`"${shorten(value)}" is not a UUID`)
      return `'${trimmed.toLowerCase()}'::uuid`
    }
  }
}

/** The cast a type's literal carries; an integer beyond int4's range is a bigint. */
function castOf(type: Exclude<ParameterType, 'null'>, integer: bigint | null): string {
  if (type === 'integer') {
    return integer !== null && (integer < INT4_MIN || integer > INT4_MAX) ? 'bigint' : 'integer'
  }
  return type
}

/**
 * A text value as a string literal. Plain `'…'` (quotes doubled) when it holds no backslash;
 * with one, `E'…'` with backslashes doubled too, so the value reads the same whether the
 * server's standard_conforming_strings is on or off.
 */
export function quoteString(value: string): string {
  // PostgreSQL text cannot hold NUL; refusing it beats a server error halfway through a run.
  if (value.includes('\u0000')) throw new ParameterValueError('Text cannot contain a NUL character')
  const quoted = value.replaceAll("'", "''")
  if (!value.includes('\\')) return `'${quoted}'`
  return `E'${quoted.replaceAll('\\', '\\\\')}'`
}

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (month < 1 || month > 12 || day < 1) return false
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return day <= daysInMonth
}

function shorten(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value
}

/** A binding as SQL: one literal, or a comma-separated list for `IN (:ids)`. */
export function bindingToSql(binding: ParameterBinding): string {
  if (!('list' in binding)) return toLiteral(binding.type, binding.value)
  if (binding.list.length === 0) throw new ParameterValueError('A list needs at least one value')
  return binding.list.map((value) => toLiteral(binding.type, value)).join(', ')
}

/**
 * The statement with every placeholder (as main found them in it, in text order) replaced by
 * its value's literal: the text as sent to the service and recorded in history. Every placeholder needs a binding; a placeholder in an
 * identifier's place, or a value not of its type, throws ParameterValueError naming it.
 */
export function bindParameters(
  sql: string,
  placeholders: readonly Placeholder[],
  bindings: Readonly<Record<string, ParameterBinding>>,
): string {
  let result = ''
  let copied = 0
  for (const placeholder of placeholders) {
    if (placeholder.inIdentifierPosition) {
      throw new ParameterValueError(
        `:${placeholder.name} stands where a table or column name goes; parameters can only be values`,
        placeholder.name,
      )
    }
    const binding = Object.hasOwn(bindings, placeholder.name)
      ? bindings[placeholder.name]
      : undefined
    if (binding === undefined) {
      throw new ParameterValueError(`No value for :${placeholder.name}`, placeholder.name)
    }
    let literal: string
    try {
      literal = bindingToSql(binding)
    } catch (error) {
      if (error instanceof ParameterValueError) {
        throw new ParameterValueError(`:${placeholder.name}: ${error.message}`, placeholder.name)
      }
      throw error
    }
    // `x:name` would glue the literal onto the word before it (`xE'…'`): keep them apart.
    const before = sql[placeholder.from - 1]
    const gap = before !== undefined && /[A-Za-z0-9_$\u0080-\uffff'"]/.test(before) ? ' ' : ''
    result += sql.slice(copied, placeholder.from) + gap + literal
    copied = placeholder.to
  }
  return result + sql.slice(copied)
}
