import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { isIPv6 } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { SandboxCore } from './context'
import { createDownloadFaults, createDownloadSigner } from './downloads'
import { createFaultInjector } from './faults'
import type { SandboxFlavor } from './flavor'
import { createRateLimiter, GATEWAY_TOKEN_PREFIX } from './gateway'
import { createSandboxPki } from './pki'
import { createPostgresEngine } from './postgres'
import { buildSeed, postgresDatabasesOf } from './seed'
import { seedIdsOf } from './seed/ids'
import type { SeedIds } from './seed/ids'
import { createRequestListener } from './server'
import { createVolumeArchive } from './volumes'

export type { SeedIds } from './seed/ids'
export type { SandboxFlavor } from './flavor'
export { isSandboxFlavor, SANDBOX_FLAVORS } from './flavor'

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number
  /** Defaults to 127.0.0.1: the sandbox is for this machine. */
  host?: string
  /** Tokens not given are random. */
  adminToken?: string
  viewerToken?: string
  /** A real PostgreSQL for op 5 instead of in-process PGlite. */
  databaseUrl?: string
  /** Scale testing (the CLI's `--certificates N`): this many certificates in all, at least. */
  certificateCount?: number
  /** Told about anything that became a 500 INTERNAL_ERROR (the sandbox itself never logs). */
  onUnexpectedError?: (error: unknown) => void
  /** Fault injection for tests (`--faults`, see faults.ts); off by default. */
  faults?: boolean
  /**
   * The second personality (`--variant`): at every point the interface leaves open ("not
   * shown"), the other reasonable choice (docs/SERVICE.md lists them). The app must read both.
   */
  variant?: boolean
  /**
   * Which personality answers (`--flavor`, flavor.ts): `default`, `variant` (the same as
   * `variant: true`) or `gateway`, the rules and shapes of a real deployment (docs/SERVICE.md).
   */
  flavor?: SandboxFlavor
  /**
   * Op 5's bounds. `service` (the default, and the app's embedded sandbox): what a real
   * deployment validates, maxRows 1..2000 (500 by default) and sql at most 100,000 characters.
   * `wide` (`--wide-sql-limits`): maxRows up to 100,000 (1000 by default), for the benches and
   * tests that read 100,000-row results.
   */
  sqlLimits?: 'service' | 'wide'
  /**
   * Serve HTTPS with this certificate (PEM; may carry its chain after it) and key (`--tls-cert`,
   * `--tls-key`): for tests of trust and proxies. Plain HTTP when not given.
   */
  tls?: { cert: string | Buffer; key: string | Buffer }
  /**
   * The gateway flavour's rate limiter's clock (epoch ms; the wall clock by default). A test
   * that counts requests by X-RateLimit-Remaining holds it still, so none leaves the 60 s window.
   */
  rateLimitClock?: () => number
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:4010, with the real port. */
  url: string
  tokens: { admin: string; viewer: string }
  /** The seeded ids, as `GET /__sandbox/seed` answers them. */
  seed(): SeedIds
  /** Restores the seed: state, tokens (logged-out ones work again) and the databases. */
  reset(): Promise<void>
  /**
   * Makes the admin token work again after it logged out (op 2), and changes nothing else:
   * what was uploaded, moved or resolved stays. For the app's "Sign in to the sandbox".
   */
  reinstateAdmin(): void
  /** Stops listening, drops open connections and closes the databases. */
  close(): Promise<void>
}

/** Thrown when the sandbox cannot start; `message` is one line fit for a terminal. */
export class SandboxStartError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message)
    this.name = 'SandboxStartError'
  }
}

function randomToken(flavor: SandboxFlavor): string {
  // The gateway flavour's API tokens carry the real service's prefix.
  const prefix = flavor === 'gateway' ? GATEWAY_TOKEN_PREFIX : ''
  return prefix + randomBytes(32).toString('base64url')
}

/** `flavor`, or `variant: true` as the older spelling of `flavor: 'variant'`. */
export function flavorOf(options: Pick<SandboxOptions, 'flavor' | 'variant'>): SandboxFlavor {
  return options.flavor ?? (options.variant ? 'variant' : 'default')
}

/** The host as it goes in a URL; a wildcard bind is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return isIPv6(host) ? `[${host}]` : host
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      const where = `${host}:${port}`
      const message =
        error.code === 'EADDRINUSE'
          ? `Port ${port} on ${host} is already in use (use --port 0 for any free port)`
          : error.code === 'EACCES'
            ? `Not allowed to listen on ${where}`
            : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
              ? `Cannot listen on ${where}: no such local address`
              : `Cannot listen on ${where}: ${error.message}`
      reject(new SandboxStartError(message, error.code))
    }
    const onListening = () => {
      server.off('error', onError)
      resolve(server.address() as AddressInfo)
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()))
    // Keep-alive and streaming connections would otherwise hold the port open.
    server.closeAllConnections()
  })
}

/** The certificate authority, the seed, the databases: everything one sandbox holds. */
async function buildCore(
  tokens: { admin: string; viewer: string },
  baseUrl: string,
  databaseUrl?: string,
  certificateCount = 0,
  personality: { flavor: SandboxFlavor; sqlLimits: 'service' | 'wide' } = {
    flavor: 'default',
    sqlLimits: 'service',
  },
  rateLimitClock?: () => number,
) {
  const pki = await createSandboxPki()
  const seed = await buildSeed({
    pki,
    createVolumeArchive,
    tokens,
    now: Date.now(),
    certificateCount,
  })
  const pristine = seed.state
  const postgres = createPostgresEngine({
    databases: postgresDatabasesOf(pristine),
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  })
  const core: SandboxCore = {
    state: structuredClone(pristine),
    pki,
    postgres,
    archives: seed.archives,
    downloads: createDownloadSigner(),
    downloadFaults: createDownloadFaults(),
    baseUrl,
    ...personality,
    variant: personality.flavor === 'variant',
    rateLimit: createRateLimiter(rateLimitClock === undefined ? {} : { clock: rateLimitClock }),
    now: () => new Date(),
  }
  const reset = async () => {
    core.state = structuredClone(pristine)
    core.downloadFaults.clear()
    core.rateLimit.clear()
    await postgres.reset()
  }
  return { core, reset }
}

/**
 * Starts a faithful local Infrastructure Management Service. Everything it holds belongs to
 * the returned sandbox, so several can run in one process (the app embeds one in its main
 * process; tests start their own).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const port = options.port ?? 0
  const host = options.host ?? '127.0.0.1'
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SandboxStartError(`Port must be an integer from 0 to 65535, got ${port}`)
  }
  const flavor = flavorOf(options)
  const tokens = {
    admin: options.adminToken ?? randomToken(flavor),
    viewer: options.viewerToken ?? randomToken(flavor),
  }
  for (const [role, token] of Object.entries(tokens)) {
    if (!/^\S+$/.test(token)) {
      throw new SandboxStartError(`The ${role} token must be non-empty and contain no spaces`)
    }
    if (flavor === 'gateway' && !token.startsWith(GATEWAY_TOKEN_PREFIX)) {
      throw new SandboxStartError(
        `The ${role} token must start with ${GATEWAY_TOKEN_PREFIX} (the gateway flavour's API tokens)`,
      )
    }
  }
  if (tokens.admin === tokens.viewer) {
    throw new SandboxStartError('The admin and viewer tokens must differ')
  }

  // Listen first, so a taken port fails at once rather than after the seed is built.
  // Requests that arrive before the seed is ready wait for it.
  // An https.Server is an http.Server to everything below (listen, close, request events).
  const server: Server =
    options.tls === undefined
      ? createServer()
      : (createHttpsServer(options.tls) as unknown as Server)
  let ready: (listener: RequestListener) => void = () => undefined
  let failed: () => void = () => undefined
  const listenerReady = new Promise<RequestListener>((resolve, reject) => {
    ready = resolve
    failed = () => reject(new Error('The sandbox did not start'))
  })
  listenerReady.catch(() => undefined)
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    listenerReady.then(
      (listener) => listener(request, response),
      () => response.destroy(),
    )
  })
  const address = await listen(server, port, host)
  const scheme = options.tls === undefined ? 'http' : 'https'
  const baseUrl = `${scheme}://${urlHost(host)}:${address.port}`

  let built: Awaited<ReturnType<typeof buildCore>>
  try {
    built = await buildCore(
      tokens,
      baseUrl,
      options.databaseUrl,
      options.certificateCount,
      { flavor, sqlLimits: options.sqlLimits ?? 'service' },
      options.rateLimitClock,
    )
  } catch (error) {
    failed()
    await closeServer(server)
    throw error
  }
  const { core, reset } = built
  ready(
    createRequestListener({
      core,
      adminToken: tokens.admin,
      reset,
      ...(options.onUnexpectedError ? { onUnexpectedError: options.onUnexpectedError } : {}),
      ...(options.faults ? { faults: createFaultInjector() } : {}),
    }),
  )

  let closing: Promise<void> | null = null
  return {
    url: baseUrl,
    tokens,
    seed: () => seedIdsOf(core.state, core.now()),
    reset,
    reinstateAdmin: () => reinstateToken(core.state, tokens.admin),
    close() {
      closing ??= (async () => {
        try {
          await closeServer(server)
        } finally {
          await core.postgres.close()
        }
      })()
      return closing
    },
  }
}

/** A logged-out token and its session live again; unknown tokens are left alone. */
function reinstateToken(state: SandboxCore['state'], token: string): void {
  const record = state.tokens.find((candidate) => candidate.token === token)
  if (!record) return
  record.revoked = false
  const session = state.sessions.find((candidate) => candidate.id === record.sessionId)
  if (session) session.endedAt = null
}
