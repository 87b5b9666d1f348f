import type { z } from 'zod'
import { buildPath, errorBodySchema, operations, toValidationIssues } from '../../shared/api'
import type {
  ExportFormat,
  ListOperationName,
  OperationDef,
  OperationName,
  Operations,
  ResponseOf,
  ValidationIssue,
} from '../../shared/api'
import { APP_ERROR_CODES, EXPORT_FORMAT_INFO } from '../../shared/bridge'
import { filenameFromContentDisposition } from './content-disposition'
import { badResponse, mainMediaType, parseAnswer, parseJsonBody } from './answer-checks'
import { bodyBreak, readBounded } from './body'
import { redactError, ServiceError } from './errors'
import { exportShapeProblem } from './export-shape'
import type { ExportAnswer } from './export-stream'
import { readListAnswer, SinkFailure } from './list-answer'
import type { RowSink } from './list-answer'
import { attemptTimer, feedAnswer, NO_CLOCK } from './streamed-answer'
import type { AnswerSink, AttemptClock } from './streamed-answer'
import { createNetworkStack, DEFAULT_PROFILE_NETWORK, loadUndici, ProxyRefusedError } from '../net'
import type { ClientNetwork, NetworkRoute } from '../net'
import { isPermanentProxyRefusal, proxyRefusal, transportError } from '../net/errors'
import { describeOrigin } from './network'
import { requestRaw } from './raw-http'
import type { RawResponse } from './raw-http'
import { refusalOf } from './refusal'
import { asksToComeBack, nextWaitMs, retryAtOf } from './retry-after'
import type { WaitBudget } from './retry-after'

/*
 * One client for all 22 operations of the contract (src/shared/api/operations.ts). Requests are
 * validated strictly before they leave; answers are parsed leniently; every failure becomes a
 * ServiceError whose message says what failed and never holds the token.
 */

export interface ServiceClientOptions {
  /** The service's base URL; a path prefix (https://host/ims) is kept. */
  baseUrl: string
  token: string
  /** Per attempt, until the whole answer is read. Default 30 s. */
  timeoutMs?: number
  /** Extra attempts for safe calls (GET) after a network error or 502/503/504. Default 2. */
  maxRetries?: number
  userAgent?: string
  /** First backoff delay; doubles per retry, with jitter. Default 250 ms. */
  retryDelayMs?: number
  /**
   * The largest answer body read into memory, in bytes (calls and certificate exports; streamed
   * downloads are not held in memory). Past it the call fails with a clear error instead of
   * letting one answer take the app down. Default 64 MiB.
   */
  maxResponseBytes?: number
  /**
   * How connections are made (proxy, trusted CAs; src/main/net). Default: the environment's
   * proxy variables and the system's and bundled CAs, as for a profile that sets nothing.
   */
  network?: ClientNetwork
  /**
   * Told before a read waits out the service's rate limit (429, or 503 with `Retry-After`;
   * retry-after.ts), so the user sees why nothing happens for a few seconds.
   */
  onRateLimitWait?: (wait: RateLimitWait) => void
  /**
   * Aborted: every request of this client under way ends as cancelled, and any asked later
   * (the desk's requests stopped as the process ends: the CLI's Ctrl-C).
   */
  signal?: AbortSignal
}

export interface RateLimitWait {
  /** The operation waiting, when it is one of the contract's (not a raw download). */
  operation: OperationName | null
  /** How long until the next attempt. */
  waitMs: number
  /** This wait's number, from 1 (at most MAX_RATE_LIMIT_WAITS). */
  attempt: number
}

export interface CallInput {
  params?: Record<string, string>
  query?: Record<string, unknown>
  body?: unknown
}

export interface CallOptions {
  signal?: AbortSignal
  /** This call's timeout instead of the client's (a long SQL statement); 0: none. */
  timeoutMs?: number
}

export interface ExportRequest {
  format: ExportFormat
  passphrase?: string
}

export interface CertificateFile {
  /** As the service named it (not yet sanitised for disk). */
  filename: string
  mediaType: string
  bytes: Buffer
}

export interface RawFetchOptions {
  headers?: Record<string, string>
  signal?: AbortSignal
  /** Send the bearer token; it is only ever sent to the profile's own origin. */
  authenticated: boolean
  /** Until the response headers arrive (the body may stream for long). Default: timeoutMs. */
  headersTimeoutMs?: number
  /** No byte of the answer for this long ends the exchange (raw-http.ts). Default 60 s. */
  idleTimeoutMs?: number
}

export type { ListRow, RowSink } from './list-answer'
export type { AnswerControl, AnswerSink } from './streamed-answer'

export interface ServiceClient {
  readonly baseUrl: string
  /**
   * A big list (LIST_OPERATIONS) read as it arrives, never held whole (list-answer.ts): each
   * row is parsed, validated and handed to `sink` in order; resolves with the row count once
   * the body has ended and its envelope is checked. A row or envelope that breaks the contract
   * rejects with BAD_RESPONSE naming it (after the rows before it reached the sink: a sink that
   * stores them keeps them aside until then). Errors are ServiceErrors as with `call`, except
   * what the sink throws, which is thrown as it is.
   */
  callRows(
    name: ListOperationName,
    sink: RowSink,
    input?: CallInput,
    options?: CallOptions,
  ): Promise<number>
  call<N extends OperationName>(
    name: N,
    input?: CallInput,
    options?: CallOptions,
  ): Promise<ResponseOf<N>>
  /**
   * Like `call`, but the success body comes back as the bytes the service sent (UTF-8 JSON),
   * unparsed and unvalidated: for callers that parse a big answer once, their own way and off
   * main's loop (op 5's results of 100,000 rows: 25 MB, ~150 ms just to decode as text). The
   * request is validated and errors are ServiceErrors exactly as with `call`.
   */
  callBytes(name: OperationName, input?: CallInput, options?: CallOptions): Promise<Buffer>
  /**
   * A GET whose 2xx answer is handed to `sink` as it arrives (streamed-answer.ts): op 15, which
   * a real deployment answers with the archive itself, of any size. Retried, timed out and
   * refused exactly as `call` (a retry begins the sink again); the sink says whether the answer
   * is held (the response size limit and the whole-answer timeout apply) or written out (no
   * limit; the timeout is the longest wait for the next byte). Resolves with what `sink.end`
   * returns; what the sink throws that is not a ServiceError is thrown as it is.
   */
  streamAnswer<T>(
    name: OperationName,
    sink: AnswerSink<T>,
    input?: CallInput,
    options?: CallOptions & { accept?: string },
  ): Promise<T>
  exportCertificateFile(
    id: string,
    body: ExportRequest,
    options?: CallOptions,
  ): Promise<CertificateFile>
  /**
   * Op 12's answer as it arrives, for writing to disk as it comes (export-stream.ts): once the
   * service answered 2xx, `consume` gets the headers and the body's chunks, and the call
   * resolves with what `consume` returns. A non-2xx answer is a ServiceError as with `call`;
   * a body that breaks throws a ServiceError from the chunks' iteration. Never retried: a POST.
   */
  streamCertificateExport<T>(
    id: string,
    body: ExportRequest,
    consume: (answer: ExportAnswer) => Promise<T>,
    options?: CallOptions,
  ): Promise<T>
  /**
   * A GET whose body streams, for downloads (op 15's downloadUrl): `url` may be relative to the
   * base URL; redirects are followed. Network failures are ServiceErrors; any HTTP status is
   * returned as is (see `errorFromResponse` to turn a non-2xx into one).
   */
  fetchRaw(url: string, options: RawFetchOptions): Promise<RawResponse>
  /**
   * What a worker thread needs to make this client's downloads itself (transfers/
   * worker-download.ts): the same base URL, token, user agent, timeout and routes. Main only:
   * it carries the token, which never crosses the bridge.
   */
  downloadSpec(): ClientSpec
}

/** A client's settings, for a copy of it on a worker thread; `network` stays on main. */
export interface ClientSpec {
  baseUrl: string
  token: string
  userAgent: string
  timeoutMs: number
  network: ClientNetwork
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_MAX_RETRIES = 2
const DEFAULT_RETRY_DELAY_MS = 250
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024
const MAX_RETRY_DELAY_MS = 5_000
const MAX_REDIRECTS = 5
const RETRYABLE_STATUSES = new Set([502, 503, 504])

/** What one HTTP exchange produced, body fully read. */
interface Exchange {
  url: URL
  status: number
  headers: Headers
  bytes: Buffer
}

interface PreparedRequest {
  operation: OperationName
  url: URL
  method: string
  /** GET without side effects: may be retried. */
  safe: boolean
  body?: string
}

/** The network of clients created without one: shared, so its connections are reused. */
let defaultNetwork: ClientNetwork | null = null
function sharedDefaultNetwork(): ClientNetwork {
  defaultNetwork ??= createNetworkStack().forProfile(DEFAULT_PROFILE_NETWORK)
  return defaultNetwork
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const network = options.network ?? sharedDefaultNetwork()
  const token = options.token
  const secrets = [token]
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES)
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  const userAgent = options.userAgent ?? 'Infradesk'

  /** Every public method ends here: whatever escapes is a ServiceError without the token. */
  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof SinkFailure) throw error.reason
      if (error instanceof ServiceError) throw redactError(error, secrets)
      // A bug of ours, not the network's: nothing of its text crosses (it may quote a header).
      throw new ServiceError('INTERNAL_ERROR', 'Infradesk could not complete the request', {
        cause: error,
      })
    }
  }

  /** The call's signal and the client's own, either ending the request. */
  function withClientSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
    const lifetime = options.signal
    if (lifetime === undefined || signal === undefined) return signal ?? lifetime
    return AbortSignal.any([signal, lifetime])
  }

  function baseUrl(): URL {
    return parseBaseUrl(options.baseUrl)
  }

  function authHeaders(): Record<string, string> {
    if (/[\r\n\0]/.test(token) || [...token].some((char) => char.charCodeAt(0) > 0xff)) {
      // Checked here because fetch would reject the header with a message quoting the token.
      throw validationError([
        { path: ['token'], message: 'The token contains characters that cannot be sent' },
      ])
    }
    return { authorization: `Bearer ${token}`, 'user-agent': userAgent }
  }

  function prepare(name: OperationName, input: CallInput): PreparedRequest {
    const { params, query, body } = checkCallInput(name, input)
    const operation: OperationDef = operations[name]
    const url = baseUrl()
    url.pathname =
      url.pathname.replace(/\/+$/, '') + buildPath(operation.path, params as Record<string, string>)
    url.search = toSearch(query as Record<string, unknown>)
    return {
      operation: name,
      url,
      method: operation.method,
      safe: operation.method === 'GET' && !operation.mutates,
      body: body === undefined ? undefined : JSON.stringify(body),
    }
  }

  /**
   * One request, retried for safe calls on network errors and 502/503/504, and after the wait a
   * 429 or 503 names in `Retry-After` (within retry-after.ts's budget; writes never). Each
   * attempt has its own timeout, which covers reading the whole answer. With `stream`, a 2xx
   * body is handed to it instead of being read into `bytes` (an attempt that breaks mid-body
   * calls it again).
   */
  async function exchange(
    request: PreparedRequest,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
    callTimeoutMs = timeoutMs,
    stream?: (response: Response, clock: AttemptClock) => Promise<void>,
  ): Promise<Exchange> {
    signal = withClientSignal(signal)
    const waits: WaitBudget = { waits: 0, waitedMs: 0 }
    for (let attempt = 0; ; attempt += 1) {
      const mayRetry = request.safe && attempt < maxRetries
      try {
        const result = await attemptOnce(request, headers, signal, callTimeoutMs, stream)
        const now = new Date()
        const retryAt = retryAtOf(result.headers.get('retry-after'), now)
        if (request.safe && asksToComeBack(result.status) && retryAt !== null) {
          // The service said when: that wait, not our backoff, and it does not use up a retry.
          const waitMs = nextWaitMs(retryAt, now, waits, 0)
          if (waitMs === null) return result
          waits.waits += 1
          waits.waitedMs += waitMs
          options.onRateLimitWait?.({ operation: request.operation, waitMs, attempt: waits.waits })
          await pause(waitMs, signal, request.url)
          attempt -= 1
          continue
        }
        if (!(mayRetry && RETRYABLE_STATUSES.has(result.status))) return result
      } catch (error) {
        if (!(
          mayRetry &&
          error instanceof ServiceError &&
          error.code === APP_ERROR_CODES.OFFLINE &&
          !isPermanentProxyRefusal(error)
        )) {
          throw error
        }
      }
      await backoff(attempt, signal, request.url)
    }
  }

  async function attemptOnce(
    request: PreparedRequest,
    headers: Record<string, string>,
    caller: AbortSignal | undefined,
    attemptTimeoutMs: number,
    stream?: (response: Response, clock: AttemptClock) => Promise<void>,
  ): Promise<Exchange> {
    // Our own timer rather than AbortSignal.timeout: a streamed answer turns it into a wait
    // between bytes (streamed-answer.ts).
    const timer = attemptTimeoutMs > 0 ? attemptTimer(attemptTimeoutMs) : null
    const timeout = timer?.signal
    const signals = [timeout, caller].filter((item): item is AbortSignal => item !== undefined)
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined
    let route: NetworkRoute | null = null
    try {
      route = await network.route(request.url)
      // undici's own fetch: Node's global one may be another undici than the dispatcher's.
      const { fetch: undiciFetch } = await loadUndici()
      const response = await undiciFetch(request.url, {
        dispatcher: route.dispatcher,
        method: request.method,
        headers:
          request.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: request.body,
        signal,
        // A redirect would carry the token elsewhere: it is reported instead (see readError).
        redirect: 'manual',
      })
      if (response.status === 407 && route.proxy !== null) {
        // An http service's request went to the proxy whole; the proxy wants a login.
        await response.body?.cancel().catch(() => undefined)
        throw new ProxyRefusedError(route.proxy.origin, 407, response.statusText)
      }
      if (stream !== undefined && isSuccess(response.status)) {
        await stream(response, timer ?? NO_CLOCK)
        return {
          url: request.url,
          status: response.status,
          headers: response.headers,
          bytes: Buffer.alloc(0),
        }
      }
      const bytes = await readBounded(response, request.url, maxResponseBytes)
      return { url: request.url, status: response.status, headers: response.headers, bytes }
    } catch (error) {
      if (error instanceof SinkFailure) throw error
      throw await transportError(error, request.url, route, {
        timeout,
        timeoutMs: attemptTimeoutMs,
        caller,
      })
    } finally {
      timer?.stop()
    }
  }

  async function backoff(attempt: number, signal: AbortSignal | undefined, url: URL) {
    const exponential = Math.min(MAX_RETRY_DELAY_MS, retryDelayMs * 2 ** attempt)
    // Jitter spreads the retries of many clients that failed at the same moment.
    await pause(exponential * (0.5 + Math.random() / 2), signal, url)
  }

  /** Waits `ms`, or fails as a cancelled call when the caller aborts meanwhile. */
  async function pause(ms: number, signal: AbortSignal | undefined, url: URL) {
    try {
      await sleep(ms, signal)
    } catch (error) {
      throw await transportError(error, url, null, { caller: signal })
    }
  }

  /**
   * One exchange of a JSON operation: validated, sent (retried when safe) with this call's
   * signal and timeout, refused when the status is not 2xx. `stream` reads the body as it
   * arrives instead of into memory.
   */
  async function jsonExchange(
    name: OperationName,
    input: CallInput,
    callOptions: CallOptions,
    stream?: (response: Response, url: URL, clock: AttemptClock) => Promise<void>,
    accept = 'application/json',
  ): Promise<Exchange> {
    const request = prepare(name, input)
    const headers = { ...authHeaders(), accept }
    const result = await exchange(
      request,
      headers,
      callOptions.signal,
      callOptions.timeoutMs ?? timeoutMs,
      stream === undefined ? undefined : (response, clock) => stream(response, request.url, clock),
    )
    if (!isSuccess(result.status)) throw errorFromExchange(result, name)
    return result
  }

  async function call<N extends OperationName>(
    name: N,
    input: CallInput = {},
    callOptions: CallOptions = {},
  ): Promise<ResponseOf<N>> {
    return guarded(async () => {
      const result = await jsonExchange(name, input, callOptions)
      const operation: OperationDef = operations[name]
      return parseAnswer(name, operation.response, readJson(name, result)) as ResponseOf<N>
    })
  }

  async function callRows(
    name: ListOperationName,
    sink: RowSink,
    input: CallInput = {},
    callOptions: CallOptions = {},
  ): Promise<number> {
    return guarded(async () => {
      let count = 0
      await jsonExchange(name, input, callOptions, async (response, url) => {
        count = await readListAnswer(name, response, url, maxResponseBytes, sink)
      })
      return count
    })
  }

  async function callBytes(
    name: OperationName,
    input: CallInput = {},
    callOptions: CallOptions = {},
  ): Promise<Buffer> {
    return guarded(async () => {
      const result = await jsonExchange(name, input, callOptions)
      return result.bytes
    })
  }

  async function streamAnswer<T>(
    name: OperationName,
    sink: AnswerSink<T>,
    input: CallInput = {},
    callOptions: CallOptions & { accept?: string } = {},
  ): Promise<T> {
    return guarded(async () => {
      let ended: { value: T } | null = null
      await jsonExchange(
        name,
        input,
        callOptions,
        async (response, url, clock) => {
          ended = { value: await feedAnswer(response, url, sink, maxResponseBytes, clock) }
        },
        callOptions.accept,
      )
      if (ended === null) throw badResponse(name, 'its answer was not read')
      return (ended as { value: T }).value
    })
  }

  async function exportCertificateFile(
    id: string,
    body: ExportRequest,
    callOptions: CallOptions = {},
  ): Promise<CertificateFile> {
    return guarded(async () => {
      const request = prepare('exportCertificate', { params: { id }, body })
      const headers = { ...authHeaders(), accept: 'application/octet-stream' }
      const result = await exchange(request, headers, callOptions.signal)
      if (!isSuccess(result.status)) throw errorFromExchange(result, 'exportCertificate')
      const mediaType = mainMediaType(result.headers.get('content-type'))
      const file =
        mediaType !== null && /[/+]json$/i.test(mediaType)
          ? fileFromJson(result, body.format)
          : {
              filename:
                filenameFromContentDisposition(result.headers.get('content-disposition')) ??
                `certificate-${id}${EXPORT_FORMAT_INFO[body.format].extension}`,
              mediaType: mediaType ?? 'application/octet-stream',
              bytes: result.bytes,
            }
      // Raw bytes carry no checksum: a body a proxy damaged must not be saved as the file.
      const problem = exportShapeProblem(body.format, file.bytes)
      if (problem !== null) throw badResponse('exportCertificate', problem)
      return file
    })
  }

  async function streamCertificateExport<T>(
    id: string,
    body: ExportRequest,
    consume: (answer: ExportAnswer) => Promise<T>,
    callOptions: CallOptions = {},
  ): Promise<T> {
    return guarded(async () => {
      const request = prepare('exportCertificate', { params: { id }, body })
      // The file itself first; the JSON form is read too (export-stream.ts).
      const headers = {
        ...authHeaders(),
        accept: 'application/octet-stream, */*;q=0.8, application/json;q=0.5',
      }
      let consumed: { value: T } | null = null
      const result = await exchange(
        request,
        headers,
        callOptions.signal,
        callOptions.timeoutMs ?? timeoutMs,
        async (response) => {
          const body = response.body
          const declared = Number(response.headers.get('content-length'))
          const attemptMs = callOptions.timeoutMs ?? timeoutMs
          // Read from the moment the answer arrives, not when the writer first asks: a stream
          // that errors drops what it had queued, so a cut after 40 bytes would read as "after
          // 0 bytes" whenever the writer was slow to start. At most EAGER_BYTES wait unread.
          const eager = body === null ? null : eagerChunks(body)
          async function* chunks(): AsyncIterable<Uint8Array> {
            if (eager === null) return
            try {
              yield* eager.chunks()
            } catch (error) {
              // Said here, as the network error it is (a cut, the attempt's timeout, a cancel):
              // the writer between this and the exchange would word it as a disk's failure.
              const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
              throw await transportError(
                bodyBreak(error, request.url, eager.received(), declared),
                request.url,
                null,
                {
                  caller: callOptions.signal,
                  ...(timedOut ? { timeout: AbortSignal.abort(), timeoutMs: attemptMs } : {}),
                },
              )
            }
          }
          try {
            consumed = { value: await consume({ headers: response.headers, chunks: chunks() }) }
          } catch (error) {
            // What the consumer threw (a full disk, a damaged file) is thrown as it is.
            throw error instanceof ServiceError ? error : new SinkFailure(error)
          }
        },
      )
      if (!isSuccess(result.status)) throw errorFromExchange(result, 'exportCertificate')
      if (consumed === null) throw badResponse('exportCertificate', 'its answer was not read')
      return (consumed as { value: T }).value
    })
  }

  function fileFromJson(result: Exchange, format: ExportFormat): CertificateFile {
    const parsed = parseAnswer(
      'exportCertificate',
      operations.exportCertificate.response,
      readJson('exportCertificate', result),
    )
    const { filename, mediaType, encoding, content } = parsed.data
    if (encoding === 'base64') {
      if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(content)) {
        throw badResponse('exportCertificate', 'its base64 content is not valid base64')
      }
      return { filename, mediaType, bytes: Buffer.from(content, 'base64') }
    }
    if (EXPORT_FORMAT_INFO[format].binary) {
      // A binary file squeezed through text has already lost bytes: refuse rather than save it.
      throw badResponse('exportCertificate', `the binary ${format} export was sent as text`)
    }
    return { filename, mediaType, bytes: Buffer.from(content, 'utf8') }
  }

  async function fetchRaw(url: string, rawOptions: RawFetchOptions): Promise<RawResponse> {
    const caller = withClientSignal(rawOptions.signal)
    return guarded(async () => {
      const base = baseUrl()
      let target = resolveUrl(url, base)
      const headersTimeoutMs = rawOptions.headersTimeoutMs ?? timeoutMs
      // Headers only: a download may take far longer than any single call.
      const timeout = new AbortController()
      const timer =
        headersTimeoutMs > 0
          ? setTimeout(
              () => timeout.abort(new DOMException('headers timeout', 'TimeoutError')),
              headersTimeoutMs,
            )
          : undefined
      const signals = [timeout.signal, caller].filter(
        (item): item is AbortSignal => item !== undefined,
      )
      const signal = AbortSignal.any(signals)
      try {
        for (let hop = 0; ; hop += 1) {
          const headers: Record<string, string> = { 'user-agent': userAgent }
          Object.assign(headers, rawOptions.headers)
          // The token goes to the profile's own origin only, on every hop of a redirect.
          if (rawOptions.authenticated && target.origin === base.origin) {
            Object.assign(headers, authHeaders())
          } else {
            delete headers.authorization
            delete headers.Authorization
          }
          let response: RawResponse
          let route: NetworkRoute | null = null
          try {
            route = await network.route(target)
            response = await requestRaw(target, {
              headers,
              signal,
              idleTimeoutMs: rawOptions.idleTimeoutMs,
              route,
            })
          } catch (error) {
            throw await transportError(error, target, route, {
              timeout: timeout.signal,
              timeoutMs: headersTimeoutMs,
              caller,
            })
          }
          if (response.status === 407 && route.proxy !== null) {
            response.discard()
            throw proxyRefusal(new ProxyRefusedError(route.proxy.origin, 407))
          }
          const location = response.headers.get('location')
          if (!isRedirect(response.status) || location === null || hop >= MAX_REDIRECTS) {
            return response
          }
          response.discard()
          target = resolveUrl(location, target)
        }
      } finally {
        clearTimeout(timer)
      }
    })
  }

  return {
    callRows,
    get baseUrl() {
      return options.baseUrl
    },
    call,
    callBytes,
    streamAnswer,
    exportCertificateFile,
    streamCertificateExport,
    fetchRaw,
    downloadSpec: () => ({ baseUrl: options.baseUrl, token, userAgent, timeoutMs, network }),
  }
}

/* ------------------------------------------------------------------ helpers */

/** The most of an answer read ahead of its consumer (eagerChunks). */
const EAGER_BYTES = 4 * 1024 * 1024

/**
 * A body read as soon as it arrives, handed out in order; reading pauses while EAGER_BYTES
 * wait for the consumer. `received()` counts what arrived, consumed or not.
 */
function eagerChunks(body: ReadableStream<Uint8Array>): {
  chunks(): AsyncIterable<Uint8Array>
  received(): number
} {
  const reader = body.getReader()
  const queue: Uint8Array[] = []
  let queued = 0
  let received = 0
  let finished = false
  let failure: { error: unknown } | null = null
  let wakeConsumer: (() => void) | null = null
  let wakeReader: (() => void) | null = null
  const wake = (which: 'consumer' | 'reader') => {
    const waiting = which === 'consumer' ? wakeConsumer : wakeReader
    if (which === 'consumer') wakeConsumer = null
    else wakeReader = null
    waiting?.()
  }
  void (async () => {
    try {
      for (;;) {
        while (queued >= EAGER_BYTES) await new Promise<void>((resolve) => (wakeReader = resolve))
        const next = await reader.read()
        if (next.done) break
        received += next.value.byteLength
        queued += next.value.byteLength
        queue.push(next.value)
        wake('consumer')
      }
    } catch (error) {
      failure = { error }
    } finally {
      finished = true
      wake('consumer')
    }
  })()
  return {
    received: () => received,
    async *chunks() {
      try {
        for (;;) {
          const chunk = queue.shift()
          if (chunk !== undefined) {
            queued -= chunk.byteLength
            wake('reader')
            yield chunk
            continue
          }
          if (failure !== null) throw (failure as { error: unknown }).error
          if (finished) return
          await new Promise<void>((resolve) => (wakeConsumer = resolve))
        }
      } finally {
        // A consumer that stops early (a damaged file) lets the connection go.
        if (!finished) await reader.cancel().catch(() => undefined)
      }
    },
  }
}

/** The body as JSON, or BAD_RESPONSE saying what it is instead. */
function readJson(name: OperationName, result: Exchange): unknown {
  return parseJsonBody(
    name,
    result.status,
    result.headers.get('content-type'),
    result.bytes.toString('utf8'),
  )
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL
  try {
    url = new URL(baseUrl.trim())
  } catch {
    throw new ServiceError(
      APP_ERROR_CODES.BAD_URL,
      `"${baseUrl}" is not a valid URL (expected e.g. https://ims.example.com)`,
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ServiceError(
      APP_ERROR_CODES.BAD_URL,
      `"${baseUrl}" must start with https:// or http://`,
    )
  }
  if (url.username !== '' || url.password !== '') {
    throw new ServiceError(
      APP_ERROR_CODES.BAD_URL,
      'The base URL must not contain a user name or password; use an access token',
    )
  }
  url.search = ''
  url.hash = ''
  return url
}

function resolveUrl(url: string, base: URL): URL {
  let resolved: URL
  try {
    resolved = new URL(url, base)
  } catch {
    throw new ServiceError(APP_ERROR_CODES.BAD_URL, `"${url}" is not a valid URL`)
  }
  if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:') {
    throw new ServiceError(APP_ERROR_CODES.BAD_URL, `"${url}" is not an http(s) URL`)
  }
  return resolved
}

/** A request's parts as the operation's schemas parsed them. */
export interface CheckedCallInput<N extends OperationName> {
  params: z.output<Operations[N]['params']>
  query: z.output<Operations[N]['query']>
  /** Undefined when the operation takes none, or an optional one was left out. */
  body:
    | (Operations[N]['body'] extends infer B ? (B extends z.ZodType ? z.output<B> : never) : never)
    | undefined
}

/**
 * An operation's params, query and body checked against the service contract, as parsed; a
 * VALIDATION_ERROR naming each field that is wrong otherwise. Every request is checked here
 * before it is sent; a caller that judges a request before sending it (service.call's SQL guard)
 * checks it here first, so that a malformed request is refused for what is wrong with it.
 */
export function checkCallInput<N extends OperationName>(
  name: N,
  input: CallInput,
): CheckedCallInput<N> {
  if (!Object.hasOwn(operations, name)) {
    throw validationError([{ path: ['operation'], message: `Unknown operation "${name}"` }])
  }
  const operation: OperationDef = operations[name]
  const issues: ValidationIssue[] = []
  const params = collect(operation.params, input.params ?? {}, issues)
  const query = collect(operation.query, input.query ?? {}, issues)
  let body: unknown
  if (operation.body === null) {
    if (input.body !== undefined) {
      issues.push({ path: [], message: 'This operation takes no request body' })
    }
  } else if (input.body !== undefined || operation.bodyRequired) {
    body = collect(operation.body, input.body, issues)
  }
  if (issues.length > 0) throw validationError(issues)
  // As the operation's schemas parsed them (collect returns what they made).
  return { params, query, body } as CheckedCallInput<N>
}

function collect(schema: z.ZodType, value: unknown, issues: ValidationIssue[]): unknown {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  issues.push(...toValidationIssues(parsed.error))
  return undefined
}

function validationError(details: ValidationIssue[]): ServiceError {
  return new ServiceError('VALIDATION_ERROR', 'Request validation failed', { details })
}

/** Query values as the wire carries them; `null` is spelled `null` (op 16's showSystem). */
function toSearch(query: Record<string, unknown>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    search.append(key, value === null ? 'null' : String(value))
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299
}

function isRedirect(status: number): boolean {
  return status >= 300 && status <= 399
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * A non-2xx answer as a ServiceError: the status decides first, the body's code refines it, the
 * service's own code and message are kept (refusal.ts).
 */
function errorFromExchange(result: Exchange, operation?: OperationName): ServiceError {
  const origin = describeOrigin(result.url)
  if (isRedirect(result.status) || result.status < 200) {
    const location = result.headers.get('location')
    return new ServiceError(
      APP_ERROR_CODES.BAD_RESPONSE,
      location
        ? `${origin} redirects to ${safeLocation(location, result.url)}: check the base URL`
        : `${origin} answered HTTP ${result.status}, which is not an answer of the service`,
      { status: result.status },
    )
  }
  let json: unknown
  try {
    json = JSON.parse(result.bytes.toString('utf8'))
  } catch {
    json = undefined
  }
  const body = errorBodySchema.safeParse(json)
  const now = new Date()
  const refusal = refusalOf(result.status, body.success ? body.data : null, {
    origin,
    now,
    retryAt: retryAtOf(result.headers.get('retry-after'), now),
    ...(operation === undefined ? {} : { operation }),
  })
  return new ServiceError(refusal.code, refusal.message, {
    status: result.status,
    ...(refusal.details === undefined ? {} : { details: refusal.details }),
    ...(refusal.serviceCode === undefined ? {} : { serviceCode: refusal.serviceCode }),
    ...(operation === undefined ? {} : { operation }),
  })
}

/** The most of an error answer read: a service error is small; a proxy's page need not be. */
const MAX_ERROR_BODY_BYTES = 256 * 1024

/** Turns a non-2xx answer from fetchRaw into a ServiceError; reads (the head of) its body. */
export async function errorFromResponse(response: RawResponse, url: string): Promise<ServiceError> {
  const bytes = await response.bytes(MAX_ERROR_BODY_BYTES)
  return errorFromExchange({
    url: new URL(response.url || url),
    status: response.status,
    headers: response.headers,
    bytes,
  })
}

function safeLocation(location: string, base: URL): string {
  try {
    const url = new URL(location, base)
    return `${url.origin}${url.pathname}`
  } catch {
    return 'another address'
  }
}
