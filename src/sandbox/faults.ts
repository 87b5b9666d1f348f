import { setImmediate as nextTurn } from 'node:timers/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import { ERROR_MESSAGES, operations, OPERATION_NAMES } from '../shared/api'
import type { OperationName } from '../shared/api'
import { invalidField, notFound } from './failure'
import { json, parseJsonBody } from './http'
import type { RawBody, Reply } from './http'

/*
 * Fault injection, for tests of how the app behaves when the service or the network misbehaves.
 * Off unless the sandbox starts with `--faults`; then a fault is asked for
 *
 *   - per request, with the header `X-Sandbox-Fault: <spec>`, or
 *   - per route, with `POST /__sandbox/faults` (admin token): rules matching an operation (or a
 *     method and path) that inject a spec into the next `times` matching requests (every one when
 *     `times` is absent). `GET` lists the rules with how many requests each has seen (so a test
 *     can count retries), `DELETE` removes them all.
 *
 * A spec is a comma-separated list of directives, e.g. `latency=2000`, `status=503`,
 * `latency=500,cut=100`:
 *
 *   latency=MS      wait MS before answering
 *   drip=MS         send the body a few bytes at a time, MS apart (a slow body)
 *   status=CODE     answer CODE (500, 502, 503, 504) instead of running the handler
 *   reset           reset the connection (TCP RST) instead of answering
 *   cut=N           send the headers and the first N bytes of the body, then drop the connection
 *   malformed-json  the body's first byte is replaced, so it no longer parses as JSON
 *   echo-auth=FORM  answer 403 FORBIDDEN with an error body that quotes the request's
 *                   Authorization header ("Bearer <token>") in its message and details, as a
 *                   careless service or a debugging proxy might: FORM is plain, base64, base64url,
 *                   upper, prefix (the header cut 12 characters into the token) or percent
 *                   (encodeURIComponent). Tests check the app redacts every form.
 *
 * Faults wrap the response, not a handler, so the same spec works on the 22 operations and on
 * volume downloads (`cut=N` on `/downloads/volumes/*` is a download cut after N bytes).
 */

export const FAULT_HEADER = 'x-sandbox-fault'
export const FAULTS_PATH = '/__sandbox/faults'

const FAULT_STATUSES = [500, 502, 503, 504] as const
/** How many bytes each drip carries. */
const DRIP_CHUNK_BYTES = 16
/** Bounds that keep a mistyped spec from hanging a test run for hours. */
const MAX_DELAY_MS = 120_000

export interface FaultSpec {
  latencyMs?: number
  dripMs?: number
  status?: (typeof FAULT_STATUSES)[number]
  reset?: boolean
  cutAfterBytes?: number
  malformedJson?: boolean
  echoAuth?: EchoForm
}

/** How `echo-auth` spells the Authorization header it quotes. */
const ECHO_FORMS = {
  plain: (header: string) => header,
  base64: (header: string) => Buffer.from(header, 'latin1').toString('base64'),
  base64url: (header: string) => Buffer.from(header, 'latin1').toString('base64url'),
  upper: (header: string) => header.toUpperCase(),
  // A service that truncates what it quotes: the scheme and the token's first 12 characters.
  prefix: (header: string) => `${header.slice(0, 'Bearer '.length + 12)}…`,
  percent: (header: string) => encodeURIComponent(header),
} satisfies Record<string, (header: string) => string>
type EchoForm = keyof typeof ECHO_FORMS

function echoForm(text: string | undefined): EchoForm {
  if (text === undefined || !Object.hasOwn(ECHO_FORMS, text)) {
    throw new FaultSpecError(`echo-auth must be one of ${Object.keys(ECHO_FORMS).join(', ')}`)
  }
  return text as EchoForm
}

export class FaultSpecError extends Error {}

function integer(name: string, text: string | undefined, max: number): number {
  const value = Number(text)
  if (text === undefined || !/^\d+$/.test(text) || value > max) {
    throw new FaultSpecError(`${name} needs an integer from 0 to ${max}, got "${text ?? ''}"`)
  }
  return value
}

/** Reads a spec such as `latency=500,status=503`; throws FaultSpecError naming what is wrong. */
export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = {}
  for (const part of text.split(',').map((piece) => piece.trim())) {
    if (part === '') continue
    const [name, value] = part.split('=', 2).map((piece) => piece.trim())
    switch (name) {
      case 'latency':
        spec.latencyMs = integer('latency', value, MAX_DELAY_MS)
        break
      case 'drip':
        spec.dripMs = integer('drip', value, 10_000)
        break
      case 'status': {
        const status = Number(value)
        const allowed = FAULT_STATUSES.find((candidate) => candidate === status)
        if (allowed === undefined) {
          throw new FaultSpecError(`status must be one of ${FAULT_STATUSES.join(', ')}`)
        }
        spec.status = allowed
        break
      }
      case 'reset':
        spec.reset = true
        break
      case 'cut':
        spec.cutAfterBytes = integer('cut', value, Number.MAX_SAFE_INTEGER)
        break
      case 'malformed-json':
        spec.malformedJson = true
        break
      case 'echo-auth':
        spec.echoAuth = echoForm(value)
        break
      default:
        throw new FaultSpecError(
          `unknown fault "${name ?? ''}" (latency, drip, status, reset, cut, malformed-json, ` +
            'echo-auth)',
        )
    }
  }
  return spec
}

/* ------------------------------------------------------------------ rules */

const ruleInputSchema = z.strictObject({
  /** An operation of the contract; or give `method` and/or `path` instead. */
  operation: z.enum(OPERATION_NAMES as [OperationName, ...OperationName[]]).optional(),
  method: z.string().toUpperCase().optional(),
  /** An exact path, or a prefix ending in `*` (e.g. `/downloads/volumes/*`). */
  path: z.string().startsWith('/').optional(),
  fault: z.string().min(1),
  times: z.int().min(1).optional(),
})
const rulesInputSchema = z.strictObject({ rules: z.array(ruleInputSchema).min(1) })
type RuleInput = z.infer<typeof ruleInputSchema>

interface Rule {
  input: RuleInput
  spec: FaultSpec
  matches(method: string, pathname: string): boolean
  /** Matching requests seen, faulted or not (a spent rule keeps counting). */
  seen: number
  remaining: number | null
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function pathMatcher(input: RuleInput): (pathname: string) => boolean {
  if (input.operation) {
    const template = operations[input.operation].path
    const pattern = new RegExp(
      `^${template
        .split(/\{\w+\}/)
        .map(escapeRegExp)
        .join('[^/]+')}$`,
    )
    return (pathname) => pattern.test(pathname)
  }
  const path = input.path
  if (path === undefined) return () => true
  if (path.endsWith('*')) return (pathname) => pathname.startsWith(path.slice(0, -1))
  return (pathname) => pathname === path
}

function compileRule(input: RuleInput): Rule {
  const method = input.operation ? operations[input.operation].method : input.method
  const matchesPath = pathMatcher(input)
  return {
    input,
    spec: parseFaultSpec(input.fault),
    matches: (requestMethod, pathname) =>
      (method === undefined || method === requestMethod) && matchesPath(pathname),
    seen: 0,
    remaining: input.times ?? null,
  }
}

export interface FaultInjector {
  /** The fault this request gets (its header first, then the first matching rule), or null. */
  planFor(request: IncomingMessage, method: string, pathname: string): FaultSpec | null
  /** `/__sandbox/faults`: GET lists, POST adds, DELETE clears. */
  control(method: string, raw: RawBody): Reply
  /** Forgets every rule (the sandbox's reset does not: a test sets faults around a reset). */
  clear(): void
}

export function createFaultInjector(): FaultInjector {
  let rules: Rule[] = []
  const describe = () =>
    rules.map((rule) => ({ ...rule.input, seen: rule.seen, remaining: rule.remaining }))

  return {
    planFor(request, method, pathname) {
      const header = request.headers[FAULT_HEADER]
      let fromHeader: FaultSpec | null = null
      if (typeof header === 'string' && header.trim() !== '') {
        try {
          fromHeader = parseFaultSpec(header)
        } catch (error) {
          throw invalidField(['headers', FAULT_HEADER], (error as Error).message)
        }
      }
      let fromRule: FaultSpec | null = null
      for (const rule of rules) {
        if (!rule.matches(method, pathname)) continue
        rule.seen++
        if (fromRule === null && rule.remaining !== 0) {
          if (rule.remaining !== null) rule.remaining--
          fromRule = rule.spec
        }
      }
      return fromHeader ?? fromRule
    },

    control(method, raw) {
      if (method === 'GET') return json({ rules: describe() })
      if (method === 'DELETE') {
        rules = []
        return json({ rules: [] })
      }
      if (method !== 'POST') throw notFound({ method, allowedMethods: ['GET', 'POST', 'DELETE'] })
      if (!raw.present) throw invalidField([], 'Request body is required')
      const parsed = rulesInputSchema.safeParse(parseJsonBody(raw))
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw invalidField((issue?.path ?? []).map(String), issue?.message ?? 'Invalid rules')
      }
      const compiled: Rule[] = []
      for (const [index, input] of parsed.data.rules.entries()) {
        try {
          compiled.push(compileRule(input))
        } catch (error) {
          throw invalidField(['rules', String(index), 'fault'], (error as Error).message)
        }
      }
      rules.push(...compiled)
      return json({ rules: describe() }, 201)
    },

    clear() {
      rules = []
    },
  }
}

/* -------------------------------------------------------------- applying */

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

const GATEWAY_TEXT: Record<number, string> = {
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout',
}

/**
 * Applies the parts of `spec` that happen before the answer (latency, reset, status) and wraps
 * the response for those that change the body (drip, cut, malformed-json). Returns true when
 * the fault already answered (or dropped) the request, so the sandbox must not.
 */
export async function applyFault(
  spec: FaultSpec,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  if (spec.latencyMs) await sleep(spec.latencyMs)
  if (spec.reset) {
    // An RST rather than a FIN: the client sees ECONNRESET, as after a proxy or NAT drop.
    request.socket.resetAndDestroy()
    return true
  }
  if (spec.echoAuth !== undefined) {
    answerEchoingAuth(spec.echoAuth, request, response)
    return true
  }
  if (spec.status !== undefined) {
    // A 500 is the service's own error body; 502-504 come from a proxy in front of it, as text.
    const isGateway = spec.status !== 500
    const text = isGateway
      ? `${GATEWAY_TEXT[spec.status]}\n`
      : JSON.stringify({ code: 'INTERNAL_ERROR', message: ERROR_MESSAGES.INTERNAL_ERROR })
    request.resume()
    response.writeHead(spec.status, {
      'Content-Type': isGateway ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      Connection: 'close',
    })
    wrapBody(response, spec).end(text)
    return true
  }
  wrapBody(response, spec)
  return false
}

/** A 403 whose error body quotes the request's Authorization header (the `echo-auth` fault). */
function answerEchoingAuth(form: EchoForm, request: IncomingMessage, response: ServerResponse) {
  const echoed = ECHO_FORMS[form](request.headers.authorization ?? '')
  const text = JSON.stringify({
    code: 'FORBIDDEN',
    message: `The credentials ${echoed} may not do this`,
    details: { authorization: echoed },
  })
  request.resume()
  response.writeHead(403, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    Connection: 'close',
  })
  response.end(text)
}

/**
 * Replaces `response.write` and `response.end` so the body goes through the fault: cut after N
 * bytes, dripped, or with its first byte spoiled. Headers (Content-Length included) are left as
 * the sandbox wrote them, so a cut body is a short body, as after a dropped connection.
 */
function wrapBody(response: ServerResponse, spec: FaultSpec): ServerResponse {
  if (spec.cutAfterBytes === undefined && !spec.dripMs && !spec.malformedJson) return response
  const realWrite = response.write.bind(response) as (chunk: Buffer, done?: () => void) => boolean
  const realEnd = response.end.bind(response) as (chunk?: Buffer) => ServerResponse
  let sent = 0
  let spoiled = !spec.malformedJson
  let queue: Promise<void> = Promise.resolve()
  let cut = false

  const toBuffer = (chunk: unknown, encoding?: unknown): Buffer =>
    Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk)
          : Buffer.alloc(0)

  const forward = async (input: Buffer) => {
    let data = input
    if (cut || data.length === 0) return
    if (!spoiled) {
      data = Buffer.from(data)
      data[0] = 0x3c // '<': reads like an HTML error page a proxy put in place of the JSON
      spoiled = true
    }
    if (spec.cutAfterBytes !== undefined && sent + data.length >= spec.cutAfterBytes) {
      const keep = data.subarray(0, spec.cutAfterBytes - sent)
      cut = true
      sent += keep.length
      // Let the headers and the kept bytes leave before the connection goes.
      if (keep.length > 0) await new Promise<void>((resolve) => realWrite(keep, () => resolve()))
      else response.flushHeaders()
      await nextTurn()
      response.socket?.destroy()
      return
    }
    if (spec.dripMs) {
      for (let offset = 0; offset < data.length; offset += DRIP_CHUNK_BYTES) {
        if (response.destroyed) return
        realWrite(data.subarray(offset, offset + DRIP_CHUNK_BYTES))
        await sleep(spec.dripMs)
      }
    } else {
      realWrite(data)
    }
    sent += data.length
  }

  const wrappedWrite = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const data = toBuffer(chunk, encoding)
    queue = queue.then(() => forward(data))
    const done = typeof encoding === 'function' ? encoding : callback
    if (typeof done === 'function') void queue.then(() => (done as () => void)())
    return true
  }
  const wrappedEnd = (chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    if (chunk !== undefined && typeof chunk !== 'function') wrappedWrite(chunk, encoding)
    queue = queue.then(() => {
      if (!cut && !response.destroyed) realEnd()
    })
    const done = [chunk, encoding, callback].find((item) => typeof item === 'function')
    if (done) void queue.then(() => (done as () => void)())
    return response
  }
  // The replacements take Node's overloads loosely; the casts restore the declared types.
  response.write = wrappedWrite as ServerResponse['write']
  response.end = wrappedEnd as ServerResponse['end']
  return response
}
