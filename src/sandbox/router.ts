import type { z } from 'zod'
import { operations, OPERATION_NAMES, toValidationIssues, validationIssuesOf } from '../shared/api'
import type { OperationName, Operations, ValidationIssue } from '../shared/api'
import { ApiFailure, invalidField, notFound, validationFailure } from './failure'
import { parseJsonBody } from './http'
import type { RawBody } from './http'

/*
 * Routing straight from the contract: each operation's method and path template decide
 * which requests it answers, and its own zod schemas validate them, so the sandbox reports
 * exactly the `details[].path` the client computes before sending.
 */

type Segment = { literal: string } | { param: string }

interface CompiledRoute {
  name: OperationName
  method: string
  segments: Segment[]
}

const routes: CompiledRoute[] = OPERATION_NAMES.map((name) => ({
  name,
  method: operations[name].method,
  segments: operations[name].path.split('/').map((part) => {
    const param = /^\{(\w+)\}$/.exec(part)?.[1]
    return param === undefined ? { literal: part } : { param }
  }),
}))

export interface RouteMatch {
  name: OperationName
  /** Raw (still percent-encoded) path parameter values, by name. */
  rawParams: Record<string, string>
}

function matchSegments(route: CompiledRoute, parts: string[]): Record<string, string> | null {
  if (route.segments.length !== parts.length) return null
  const rawParams: Record<string, string> = {}
  for (const [index, segment] of route.segments.entries()) {
    const part = parts[index] ?? ''
    if ('literal' in segment) {
      if (segment.literal !== part) return null
    } else {
      rawParams[segment.param] = part
    }
  }
  return rawParams
}

/**
 * Finds the operation for a method and path. A path that no operation has is NOT_FOUND;
 * a known path with another method is NOT_FOUND too, naming the methods it allows.
 */
export function matchOperation(method: string, pathname: string): RouteMatch {
  const parts = pathname.split('/')
  const allowed: string[] = []
  for (const route of routes) {
    const rawParams = matchSegments(route, parts)
    if (!rawParams) continue
    if (route.method === method) return { name: route.name, rawParams }
    allowed.push(route.method)
  }
  if (allowed.length > 0) throw notFound({ method, allowedMethods: allowed })
  throw notFound({ path: pathname })
}

export type ParsedParams<N extends OperationName> = z.output<Operations[N]['params']>
export type ParsedQuery<N extends OperationName> = z.output<Operations[N]['query']>
/** The parsed body (for operations that take none: typed unknown, undefined at run time). */
export type ParsedBody<N extends OperationName> = z.output<NonNullable<Operations[N]['body']>>

export interface ValidatedRequest<N extends OperationName> {
  params: ParsedParams<N>
  query: ParsedQuery<N>
  body: ParsedBody<N>
}

function decodeParams(rawParams: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const [name, raw] of Object.entries(rawParams)) {
    try {
      decoded[name] = decodeURIComponent(raw)
    } catch {
      throw invalidField([name], 'Malformed percent-encoding')
    }
  }
  return decoded
}

/** Query parameters as an object; a repeated name becomes an array (and fails its schema). */
function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {}
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key)
    query[key] = values.length === 1 ? (values[0] ?? '') : values
  }
  return query
}

/**
 * Bounds the spec leaves open and the sandbox sets: page, limit, maxRows
 * (docs/ARCHITECTURE-NOTES.md, "The service contract").
 */
type Bounds = Record<string, { min: number; max?: number }>
const INTEGER_BOUNDS: Bounds = {
  page: { min: 1 },
  limit: { min: 1, max: 500 },
  maxRows: { min: 1, max: 100_000 },
}
/** A real deployment's: `limit` 1..100 (its ssl list schema); maxRows is op 5's own check. */
const GATEWAY_INTEGER_BOUNDS: Bounds = {
  page: { min: 1 },
  limit: { min: 1, max: 100 },
  maxRows: { min: 1, max: 100_000 },
}

function boundIssues(values: unknown, allBounds: Bounds): ValidationIssue[] {
  if (typeof values !== 'object' || values === null) return []
  return Object.entries(values).flatMap(([field, value]) => {
    const bounds = allBounds[field]
    if (!bounds || value === undefined) return []
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return [{ path: [field], message: 'Expected an integer' }]
    }
    if (value < bounds.min) return [{ path: [field], message: `Must be at least ${bounds.min}` }]
    if (bounds.max !== undefined && value > bounds.max) {
      return [{ path: [field], message: `Must be at most ${bounds.max}` }]
    }
    return []
  })
}

type Checked = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] }

/** The contract's schema first, then the sandbox's bounds on what it accepted. */
function check(schema: z.ZodType, value: unknown, bounds: Bounds = INTEGER_BOUNDS): Checked {
  const result = schema.safeParse(value)
  if (!result.success) return { ok: false, issues: toValidationIssues(result.error) }
  const issues = boundIssues(result.data, bounds)
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: result.data }
}

/** An empty object is what many clients send to a body-less POST; anything else is refused. */
function isEmptyObjectText(text: string): boolean {
  return text.trim() === '' || /^\{\s*\}$/.test(text.trim())
}

function checkBody(name: OperationName, raw: RawBody, bounds: Bounds): Checked {
  const schema = operations[name].body
  if (schema === null) {
    if (raw.present && !isEmptyObjectText(raw.text)) {
      return { ok: false, issues: [{ path: [], message: 'This operation takes no request body' }] }
    }
    return { ok: true, value: undefined }
  }
  if (!raw.present) {
    if (operations[name].bodyRequired) {
      return { ok: false, issues: [{ path: [], message: 'Request body is required' }] }
    }
    return check(schema, {}, bounds)
  }
  try {
    return check(schema, parseJsonBody(raw), bounds)
  } catch (error) {
    if (error instanceof ApiFailure) return { ok: false, issues: validationIssuesOf(error.details) }
    throw error
  }
}

/**
 * Validates path parameters, query and body of a matched request with the contract's
 * schemas, and reports every offending field of all three at once.
 */
export function validateRequest<N extends OperationName>(
  match: RouteMatch & { name: N },
  search: URLSearchParams,
  raw: RawBody,
  flavor: 'gateway' | 'other' = 'other',
): ValidatedRequest<N> {
  const definition = operations[match.name]
  const bounds = flavor === 'gateway' ? GATEWAY_INTEGER_BOUNDS : INTEGER_BOUNDS
  const params = check(definition.params, decodeParams(match.rawParams), bounds)
  const query = check(definition.query, queryObject(search), bounds)
  const body = checkBody(match.name, raw, bounds)
  if (!params.ok || !query.ok || !body.ok) {
    throw validationFailure([params, query, body].flatMap((part) => (part.ok ? [] : part.issues)))
  }
  return { params: params.value, query: query.value, body: body.value } as ValidatedRequest<N>
}
