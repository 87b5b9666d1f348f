import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { OperationName } from '../shared/api'
import { ERROR_MESSAGES, STATUS_FOR_CODE } from '../shared/api'
import { authenticate, authenticateSandboxAdmin, authorize } from './auth'
import { volumeKey } from './context'
import type { HandlerContext, OperationHandler, SandboxCore } from './context'
import { DOWNLOAD_PREFIX, parseDownloadCut, serveVolumeDownload } from './downloads'
import { ApiFailure, notFound } from './failure'
import { applyFault, FAULTS_PATH } from './faults'
import type { FaultInjector } from './faults'
import {
  BROWSER_ONLY_OPERATIONS,
  BROWSER_SESSION_REQUIRED,
  gatewayCredential,
  GatewayFailure,
  gatewayFailureOf,
  httpError,
  parseRateLimitRequest,
} from './gateway'
import {
  isBodyTooLarge,
  json,
  readBody,
  send,
  sendError,
  variantErrorStatus,
  variantSuccessStatus,
} from './http'
import type { RawBody, Reply } from './http'
import { handlers } from './handlers'
import { matchOperation, validateRequest } from './router'
import type { RouteMatch } from './router'
import { seedIdsOf } from './seed/ids'

export interface SandboxServerOptions {
  core: SandboxCore
  /** The admin token the sandbox started with: it opens `/__sandbox/*`. */
  adminToken: string
  reset(): Promise<void>
  /** Told about anything that became a 500, for whoever embeds the sandbox to log. */
  onUnexpectedError?: (error: unknown) => void
  /** Present only with `--faults`: the header and `/__sandbox/faults` are ignored otherwise. */
  faults?: FaultInjector
}

const SANDBOX_PREFIX = '/__sandbox/'

/** Path and query of a request target, read without letting `//host/...` pose as a URL. */
function splitTarget(target: string): { pathname: string; search: URLSearchParams } {
  const queryStart = target.indexOf('?')
  const pathname = queryStart === -1 ? target : target.slice(0, queryStart)
  const query = queryStart === -1 ? '' : target.slice(queryStart + 1)
  return { pathname, search: new URLSearchParams(query) }
}

function dispatch<N extends OperationName>(
  name: N,
  context: HandlerContext<N>,
): Reply | Promise<Reply> {
  // The handler table is keyed by operation, so handlers[name] answers operation N.
  const handler = handlers[name] as OperationHandler<N>
  return handler(context)
}

async function answerOperation(
  options: SandboxServerOptions,
  request: IncomingMessage,
  method: string,
  pathname: string,
  search: URLSearchParams,
): Promise<Reply> {
  const { core } = options
  if (core.flavor === 'gateway')
    return answerGatewayOperation(core, request, method, pathname, search)
  const match: RouteMatch = matchOperation(method, pathname)
  const caller = authenticate(core.state, request.headers.authorization)
  authorize(caller, match.name)
  const raw = await readBody(request)
  const validated = validateRequest(match, search, raw)
  caller.session.lastSeenAt = core.now().getTime()
  const reply = await dispatch(match.name, { ...validated, core, caller, request })
  return core.variant ? { ...reply, status: variantSuccessStatus(reply.status) } : reply
}

/**
 * The gateway flavour's way in (gateway.ts): the rate limit first, then the credential (a
 * `gw_…` API token, or a browser session's cookie), browser-only endpoints refused to tokens,
 * then scopes; the limit's headers go on every answer, errors included.
 */
async function answerGatewayOperation(
  core: SandboxCore,
  request: IncomingMessage,
  method: string,
  pathname: string,
  search: URLSearchParams,
): Promise<Reply> {
  const limited = core.rateLimit.take()
  if (limited.refusal) throw limited.refusal
  try {
    const credential = gatewayCredential(request)
    if (credential === null) throw httpError(401, 'Authentication required')
    const match: RouteMatch = matchOperation(method, pathname)
    const caller = authenticate(core.state, `Bearer ${credential.token}`)
    if (credential.kind === 'api-token' && BROWSER_ONLY_OPERATIONS.has(match.name)) {
      throw httpError(403, BROWSER_SESSION_REQUIRED)
    }
    authorize(caller, match.name)
    const raw = await readGatewayBody(request)
    const validated = validateRequest(match, search, raw, 'gateway')
    caller.session.lastSeenAt = core.now().getTime()
    const reply = await dispatch(match.name, { ...validated, core, caller, request })
    return { ...reply, headers: { ...limited.headers, ...reply.headers } } as Reply
  } catch (error) {
    const failure = error instanceof ApiFailure ? gatewayFailureOf(error) : error
    if (failure instanceof GatewayFailure) {
      throw new GatewayFailure(failure.status, failure.code, failure.message, failure.details, {
        ...limited.headers,
        ...failure.headers,
      })
    }
    throw failure
  }
}

/** The real service's body limit answers 413 `PAYLOAD_TOO_LARGE`, not a validation error. */
async function readGatewayBody(request: IncomingMessage): Promise<RawBody> {
  try {
    return await readBody(request)
  } catch (error) {
    if (isBodyTooLarge(error)) {
      throw new GatewayFailure(413, 'PAYLOAD_TOO_LARGE', 'Request body too large')
    }
    throw error
  }
}

/** One of the 22 operations (not a download link, not `/__sandbox`): its statuses are ours. */
function isOperationTarget(request: IncomingMessage): boolean {
  const { pathname } = splitTarget(request.url ?? '/')
  return !pathname.startsWith(SANDBOX_PREFIX) && !pathname.startsWith(DOWNLOAD_PREFIX)
}

/**
 * `/__sandbox/seed`, `/__sandbox/reset` and the download faults (`GET /__sandbox/downloads`,
 * `POST /__sandbox/downloads/cut`): not part of the service, admin token only.
 */
async function answerSandboxRoute(
  options: SandboxServerOptions,
  request: IncomingMessage,
  method: string,
  pathname: string,
): Promise<Reply> {
  const routes: Record<
    string,
    { method: string; run: (body: string | null) => Promise<Reply> | Reply }
  > = {
    [`${SANDBOX_PREFIX}seed`]: {
      method: 'GET',
      run: () => json(seedIdsOf(options.core.state, options.core.now())),
    },
    [`${SANDBOX_PREFIX}reset`]: {
      method: 'POST',
      run: async () => {
        await options.reset()
        return json({ message: 'The sandbox was restored to its seed' })
      },
    },
    [`${SANDBOX_PREFIX}downloads`]: {
      method: 'GET',
      run: () => json(options.core.downloadFaults.status()),
    },
    // The gateway flavour's rate limit met on purpose: the next `count` calls get a 429.
    [`${SANDBOX_PREFIX}rate-limit`]: {
      method: 'POST',
      run: (body) => {
        const asked = parseRateLimitRequest(body)
        options.core.rateLimit.refuseNext(asked.count, asked.retryAfterSeconds)
        return json(options.core.rateLimit.status())
      },
    },
    [`${SANDBOX_PREFIX}downloads/cut`]: {
      method: 'POST',
      run: (body) => {
        const cut = parseDownloadCut(body)
        options.core.downloadFaults.cutNext(cut.afterBytes, cut.count)
        return json(options.core.downloadFaults.status())
      },
    },
  }
  const { faults } = options
  if (faults && pathname === FAULTS_PATH) {
    authenticateSandboxAdmin(options.core.state, request.headers.authorization, options.adminToken)
    return faults.control(method, await readBody(request))
  }
  const route = routes[pathname]
  if (!route) throw notFound({ path: pathname })
  if (route.method !== method) throw notFound({ method, allowedMethods: [route.method] })
  authenticateSandboxAdmin(options.core.state, request.headers.authorization, options.adminToken)
  const body = await readBody(request)
  return route.run(body.present ? body.text : null)
}

async function answer(
  options: SandboxServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const method = request.method ?? 'GET'
  const { pathname, search } = splitTarget(request.url ?? '/')
  const fault = pathname.startsWith(SANDBOX_PREFIX)
    ? null
    : (options.faults?.planFor(request, method, pathname) ?? null)
  if (fault && (await applyFault(fault, request, response))) return
  if (pathname.startsWith(DOWNLOAD_PREFIX)) {
    const { core } = options
    const target = core.downloads.verify(pathname, search, core.now())
    const archive = core.archives.get(volumeKey(target.nodeId, target.name))
    if (!archive) throw notFound({ resource: 'volume', ...target })
    await serveVolumeDownload(
      request,
      response,
      archive,
      `${target.name}.tar.gz`,
      core.downloadFaults,
    )
    return
  }
  const reply = pathname.startsWith(SANDBOX_PREFIX)
    ? await answerSandboxRoute(options, request, method, pathname)
    : await answerOperation(options, request, method, pathname, search)
  send(response, reply, method === 'HEAD')
}

function fail(
  options: SandboxServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
  error: unknown,
): void {
  if (response.headersSent) {
    // Too late for an error body: cut the connection so the client sees a failure.
    response.destroy()
    return
  }
  // A request refused before its body was read: do not keep the connection for another.
  const headers: Record<string, string> = request.complete ? {} : { Connection: 'close' }
  if (error instanceof GatewayFailure) {
    sendError(response, error.status, error.body, { ...error.headers, ...headers })
    return
  }
  if (error instanceof ApiFailure) {
    // The variant's statuses (http.ts); a status a handler set for HTTP itself (416) stays.
    const remap =
      options.core.variant &&
      isOperationTarget(request) &&
      error.status === STATUS_FOR_CODE[error.code]
    sendError(
      response,
      remap ? variantErrorStatus(error.status) : error.status,
      error.body,
      headers,
    )
    return
  }
  options.onUnexpectedError?.(error)
  sendError(response, STATUS_FOR_CODE.INTERNAL_ERROR, {
    code: 'INTERNAL_ERROR',
    // The real service hides the cause in production with this text.
    message:
      options.core.flavor === 'gateway'
        ? 'An unexpected error occurred'
        : ERROR_MESSAGES.INTERNAL_ERROR,
  })
}

/** The sandbox's request handling: downloads, `/__sandbox/*`, then the 22 operations. */
export function createRequestListener(options: SandboxServerOptions): RequestListener {
  return (request, response) => {
    answer(options, request, response).catch((error: unknown) =>
      fail(options, request, response, error),
    )
  }
}
