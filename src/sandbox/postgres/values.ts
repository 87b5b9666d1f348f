import { types } from '@electric-sql/pglite'

// One OID table for the sandbox (naming its columns) and the app (reading node-postgres fields).
export { builtInTypeName } from '../../shared/sql/pg-types'

/*
 * How PostgreSQL's text output becomes JSON-safe values, and how type OIDs become names.
 * Both backends (PGlite and a real server through `pg`) are given the same parsers, so a
 * statement answers with the same values whichever runs it.
 */

export type ValueParser = (text: string) => unknown

const asText: ValueParser = (text) => text
const asBool: ValueParser = (text) => text === 't'
const asInteger: ValueParser = (text) => Number(text)
/** NaN and ±Infinity have no JSON number: they stay text. */
const asFloat: ValueParser = (text) => {
  const value = Number(text)
  return Number.isFinite(value) ? value : text
}
const asJson: ValueParser = (text) => JSON.parse(text) as unknown

const TIMESTAMPTZ_TEXT =
  /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?$/

/**
 * A timestamptz as an ISO instant in UTC, as Date#toISOString writes it (milliseconds).
 * Values Date cannot hold (BC, years past 9999, ±infinity) stay PostgreSQL's text.
 */
const asInstant: ValueParser = (text) => {
  const match = TIMESTAMPTZ_TEXT.exec(text)
  if (!match) return text
  const [, year, month, day, hour, minute, second, fraction, sign, offH, offM, offS] = match
  const utc = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number((fraction ?? '').padEnd(3, '0').slice(0, 3)),
  )
  const offsetSeconds =
    (sign === '-' ? -1 : 1) * (Number(offH) * 3600 + Number(offM ?? 0) * 60 + Number(offS ?? 0))
  return new Date(utc - offsetSeconds * 1000).toISOString()
}

/** A timestamp without time zone is not an instant: ISO form, no zone, full precision. */
const asLocalTimestamp: ValueParser = (text) =>
  /^\d{4}-\d\d-\d\d \d/.test(text) ? text.replace(' ', 'T') : text

const OID = {
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  text: 25,
  oid: 26,
  json: 114,
  float4: 700,
  float8: 701,
  bpchar: 1042,
  varchar: 1043,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  numeric: 1700,
  uuid: 2950,
  jsonb: 3802,
} as const

/** Scalar parsers; every type not listed keeps PostgreSQL's text (bytea is already \x hex). */
const SCALAR_PARSERS: Record<number, ValueParser> = {
  [OID.bool]: asBool,
  [OID.int2]: asInteger,
  [OID.int4]: asInteger,
  [OID.oid]: asInteger,
  [OID.float4]: asFloat,
  [OID.float8]: asFloat,
  // int8 and numeric can exceed a double: strings.
  [OID.int8]: asText,
  [OID.numeric]: asText,
  [OID.json]: asJson,
  [OID.jsonb]: asJson,
  [OID.timestamptz]: asInstant,
  [OID.timestamp]: asLocalTimestamp,
  [OID.date]: asText,
  [OID.bytea]: asText,
}

/** Array type OID -> element type OID, for the arrays parsed into JSON arrays. */
const ARRAY_ELEMENTS: Record<number, number> = {
  1000: OID.bool,
  1001: OID.bytea,
  1005: OID.int2,
  1007: OID.int4,
  1016: OID.int8,
  1009: OID.text,
  1014: OID.bpchar,
  1015: OID.varchar,
  1021: OID.float4,
  1022: OID.float8,
  1028: OID.oid,
  1231: OID.numeric,
  1182: OID.date,
  1115: OID.timestamp,
  1185: OID.timestamptz,
  199: OID.json,
  3807: OID.jsonb,
  2951: OID.uuid,
}

function arrayParser(arrayOid: number, elementOid: number): ValueParser {
  const element = SCALAR_PARSERS[elementOid] ?? asText
  return (text) => types.arrayParser(text, element, arrayOid) as unknown
}

export const VALUE_PARSERS: Record<number, ValueParser> = { ...SCALAR_PARSERS }
for (const [arrayOid, elementOid] of Object.entries(ARRAY_ELEMENTS)) {
  VALUE_PARSERS[Number(arrayOid)] = arrayParser(Number(arrayOid), elementOid)
}

/** The parser for any OID: unknown types (enums, ranges, user types) keep their text. */
export function parserFor(oid: number): ValueParser {
  return VALUE_PARSERS[oid] ?? asText
}

/**
 * A last pass that makes anything a driver parsed on its own JSON-safe (a driver default
 * for a type we did not list): bigint as a string, Date as ISO, bytes as \x hex.
 */
export function toJsonSafe(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') return value.toString()
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
    if (typeof value === 'undefined') return null
    return value
  }
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : value.toISOString()
  }
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`
  if (Array.isArray(value)) return value.map(toJsonSafe)
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJsonSafe(item)]))
}

/** Names the types the built-in table lacks (user enums, domains, extension types). */
export function typeNameLookupSql(oids: number[]): string {
  const list = oids.map((oid) => String(Math.trunc(oid))).join(',')
  return `SELECT t.oid::int4, CASE WHEN t.typcategory = 'A' AND e.oid IS NOT NULL
      THEN e.typname || '[]' ELSE t.typname END
    FROM pg_catalog.pg_type t LEFT JOIN pg_catalog.pg_type e ON e.oid = t.typelem
    WHERE t.oid IN (${list})`
}
