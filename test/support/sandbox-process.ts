import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { z } from 'zod'
import { buildPath, MIGRATION_STATUSES, operations } from '../../src/shared/api'
import type { OperationName } from '../../src/shared/api'
import { startTsxChild } from '../e2e/support/child'

/*
 * A real sandbox in a child process, and the small typed client the contract tests use
 * to talk to it over real HTTP. Nothing here knows the sandbox's internals: only its
 * command line, its ready line and the `/__sandbox` test endpoints. What the tests assert
 * of its answers is in answers.ts, the refusals they share in refusals.ts.
 */

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

const readyLineSchema = z.object({
  url: z.url(),
  tokens: z.object({ admin: z.string().min(1), viewer: z.string().min(1) }),
})

const anyId = z.string().min(1)
const uuid = z.uuid()

/**
 * The ids `GET /__sandbox/seed` returns, in the shape the app's tests rely on. Listed keys are
 * required and every list must be non-empty (the seed must be rich enough to demo every
 * screen); more keys may be added. Ids are uuids where the spec makes them uuids.
 */
export const seedIdsSchema = z.looseObject({
  certificates: z.looseObject({
    all: z.array(anyId).min(1),
    withPrivateKey: z.array(anyId).min(1),
    system: z.array(anyId).min(1),
    expired: z.array(anyId).min(1),
  }),
  certificateFolders: z.array(uuid).min(1),
  userFolders: z.array(uuid).min(1),
  nginxTemplateFolders: z.array(uuid).min(1),
  loggingEnvironmentFolders: z
    .array(z.looseObject({ id: anyId, environmentIds: z.array(uuid).min(1) }))
    .min(1),
  loggingSchemas: z.array(z.string().min(1)).min(1),
  databases: z.looseObject({
    postgres: z.array(anyId).min(1),
    redis: z.array(anyId).min(1),
    clickhouse: z.array(anyId).min(1),
    // Extras this sandbox adds (allowed by that shape); optional so the fixed shape stays the test.
    daemonCannotReload: z.array(anyId).optional(),
  }),
  // Keyed by the status as the service writes it: an unknown status is shape drift.
  migrations: z.partialRecord(z.enum(MIGRATION_STATUSES), z.array(uuid)),
  proxyHosts: z
    .array(
      z.looseObject({
        id: anyId,
        routes: z.array(z.looseObject({ id: anyId, status: z.string().min(1) })),
      }),
    )
    .min(1),
  volumes: z
    .array(
      z.looseObject({
        nodeId: anyId,
        name: z.string().min(1),
        sizeBytes: z.number().int().nonnegative(),
      }),
    )
    .min(1),
  copyJobs: z.record(z.string(), z.array(uuid)),
  incidents: z.looseObject({ open: z.array(anyId).min(1), resolved: z.array(anyId).min(1) }),
  deployments: z.array(z.looseObject({ nodeId: anyId, deploymentId: anyId })).min(1),
  apps: z.array(z.looseObject({ id: anyId, environmentIds: z.array(uuid).min(1) })).min(1),
  inferenceModels: z.array(anyId).min(1),
  // Extras this sandbox adds: tests that need them say so when they are missing.
  otherDeployments: z.array(z.looseObject({ nodeId: anyId, deploymentId: anyId })).optional(),
  appEnvironments: z
    .array(z.looseObject({ id: uuid, name: z.string(), viewerMayView: z.boolean() }))
    .optional(),
})
export type SeedIds = z.infer<typeof seedIdsSchema>

export interface SandboxTokens {
  admin: string
  viewer: string
}

export interface SandboxProcess {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string
  tokens: SandboxTokens
  /** The seed ids, fetched at start and again by `reset()`. */
  seed: SeedIds
  /** POST /__sandbox/reset, then refetches and returns the seed. */
  reset(): Promise<SeedIds>
  /** Everything the child wrote so far (tail), for failure messages. */
  output(): string
  /** SIGTERM, then waits for the process to exit (SIGKILL if it does not). */
  stop(): Promise<void>
}

/**
 * Starts `tsx src/sandbox/cli.ts --port 0 ...args` from the repository root and resolves
 * once it printed its ready line. `--port 0` is added unless `args` name a port.
 */
export async function startSandboxProcess(args: string[] = []): Promise<SandboxProcess> {
  const child = await startTsxChild({
    script: 'src/sandbox/cli.ts',
    args: args.includes('--port') ? args : ['--port', '0', ...args],
    readyPrefix: 'SANDBOX_READY',
    readySchema: readyLineSchema,
  })
  const handle: SandboxProcess = {
    url: child.ready.url.replace(/\/+$/, ''),
    tokens: child.ready.tokens,
    seed: undefined as unknown as SeedIds, // set right below, before anyone can read it
    output: child.output,
    stop: child.stop,
    async reset() {
      const response = await call(handle, { method: 'POST', path: '/__sandbox/reset' })
      if (response.status < 200 || response.status > 299) {
        throw new Error(`POST /__sandbox/reset answered ${response.status}: ${response.text()}`)
      }
      handle.seed = await fetchSeed(handle)
      return handle.seed
    },
  }
  try {
    handle.seed = await fetchSeed(handle)
  } catch (error) {
    await child.stop()
    throw error
  }
  return handle
}

/**
 * The one sandbox a test file shares: started before the file's first test and stopped after its
 * last; with `resetBeforeEach`, reset to the seed before every test. The handle reads through to
 * the running sandbox, so it can be used in any test or hook of the file; `beforeAll` hooks the
 * file registers after this call run once the sandbox is up (vitest runs them in order). Called
 * inside a `describe`, the sandbox is that block's (one per personality in a `describe.each`).
 */
export function sandboxForThisFile(options: {
  resetBeforeEach: boolean
  /** More command-line arguments, e.g. `['--variant']` for the second personality. */
  args?: string[]
}): SandboxProcess {
  let running: SandboxProcess | undefined
  const current = (): SandboxProcess => {
    if (!running) throw new Error('the sandbox is not running: use it inside a test or a hook')
    return running
  }
  beforeAll(async () => {
    running = await startSandboxProcess(options.args)
  })
  afterAll(async () => {
    await running?.stop()
  })
  if (options.resetBeforeEach) {
    beforeEach(async () => {
      await current().reset()
    })
  }
  return {
    get url() {
      return current().url
    },
    get tokens() {
      return current().tokens
    },
    get seed() {
      return current().seed
    },
    reset: () => current().reset(),
    output: () => current().output(),
    stop: () => current().stop(),
  }
}

async function fetchSeed(sandbox: Pick<SandboxProcess, 'url' | 'tokens'>): Promise<SeedIds> {
  const response = await call(sandbox, { path: '/__sandbox/seed' })
  if (response.status !== 200) {
    throw new Error(`GET /__sandbox/seed answered ${response.status}: ${response.text()}`)
  }
  const parsed = seedIdsSchema.safeParse(response.json)
  if (!parsed.success) {
    throw new Error(
      `GET /__sandbox/seed has drifted from the shape the tests rely on:\n${z.prettifyError(parsed.error)}`,
    )
  }
  return parsed.data
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/* ------------------------------------------------------------------ calls */

export interface CallOptions {
  /** GET unless given. */
  method?: string
  /** Path and query, e.g. `/api/ssl-certificates?page=2`. */
  path: string
  /** The bearer token; the admin token unless given; `null` sends no Authorization header. */
  token?: string | null
  /** Sent as JSON with `Content-Type: application/json`. */
  body?: unknown
  /** Sent exactly as given (for malformed JSON and wrong content types). */
  rawBody?: string | Buffer
  headers?: Record<string, string>
}

export interface CallResult {
  status: number
  headers: Headers
  /** The body exactly as received: never passed through a text decoder. */
  bytes: Buffer
  /** The parsed body when the response says it is JSON, else undefined. */
  json: unknown
  text(): string
}

export async function call(
  sandbox: Pick<SandboxProcess, 'url' | 'tokens'>,
  options: CallOptions,
): Promise<CallResult> {
  const headers: Record<string, string> = {}
  const token = options.token === undefined ? sandbox.tokens.admin : options.token
  if (token !== null) headers.authorization = `Bearer ${token}`
  let body: string | Uint8Array | undefined
  if (options.rawBody !== undefined) {
    body = typeof options.rawBody === 'string' ? options.rawBody : new Uint8Array(options.rawBody)
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  Object.assign(headers, options.headers)
  const response = await fetch(sandbox.url + options.path, {
    method: options.method ?? 'GET',
    headers,
    body,
  })
  const bytes = Buffer.from(await response.arrayBuffer())
  const isJson = /json/i.test(response.headers.get('content-type') ?? '')
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    json: isJson && bytes.length > 0 ? safeJson(bytes.toString('utf8')) : undefined,
    text: () => bytes.toString('utf8'),
  }
}

/**
 * Calls one operation of the contract by name: the path is built from its template
 * (each parameter URL-encoded as one segment). Nothing is validated on the way out, so
 * tests can send what the contract forbids and see what the sandbox says.
 */
export function callOperation(
  sandbox: Pick<SandboxProcess, 'url' | 'tokens'>,
  name: OperationName,
  request: {
    params?: Record<string, string>
    query?: Record<string, string>
    token?: string | null
    body?: unknown
    rawBody?: string | Buffer
    headers?: Record<string, string>
  } = {},
): Promise<CallResult> {
  const operation = operations[name]
  const query = new URLSearchParams(request.query ?? {}).toString()
  return call(sandbox, {
    method: operation.method,
    path: buildPath(operation.path, request.params ?? {}) + (query ? `?${query}` : ''),
    token: request.token,
    body: request.body,
    rawBody: request.rawBody,
    headers: request.headers,
  })
}

/** An id of the right shape that names nothing in the seed. */
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000'

/**
 * The sandbox's two personalities (SandboxOptions.variant, docs/SERVICE.md): contract tests
 * about what a client reads run against both with `describe.each(PERSONALITIES)`.
 */
export const PERSONALITIES: readonly { personality: string; variant: boolean; args: string[] }[] = [
  { personality: 'default', variant: false, args: [] },
  { personality: 'variant', variant: true, args: ['--variant'] },
]

/** The sandbox's `gateway` flavour: a real deployment's rules and shapes (docs/SERVICE.md). */
export const GATEWAY_ARGS: readonly string[] = ['--flavor', 'gateway']
