import type { SandboxOptions } from '../../sandbox'

/*
 * The messages between the app and the embedded sandbox's own process (host.ts). The sandbox
 * runs there so that its PostgreSQL (PGlite, synchronous WebAssembly) can never stall the
 * process that serves the bridge. The admin token travels in the first message, never on the
 * command line, which every local user can read.
 */

/** What can cross a process boundary of SandboxOptions: no callbacks, no TLS buffers. */
export type HostStartOptions = Pick<
  SandboxOptions,
  | 'port'
  | 'host'
  | 'adminToken'
  | 'viewerToken'
  | 'databaseUrl'
  | 'certificateCount'
  | 'faults'
  | 'variant'
  | 'flavor'
  | 'sqlLimits'
>

export type HostMethod = 'seed' | 'reset' | 'reinstateAdmin'
const HOST_METHODS: readonly string[] = ['seed', 'reset', 'reinstateAdmin'] satisfies HostMethod[]

/** The app to the sandbox's process. */
export type HostRequest =
  { type: 'start'; options: HostStartOptions } | { type: 'call'; id: number; method: HostMethod }

/** An error as it crosses: `name` and `code` let the app tell a taken port (EADDRINUSE). */
export interface HostError {
  name: string
  message: string
  code?: string
}

/** The sandbox's process to the app. */
export type HostMessage =
  | { type: 'ready'; url: string; tokens: { admin: string; viewer: string } }
  | { type: 'failed'; error: HostError }
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: HostError }

export function hostErrorOf(error: unknown): HostError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) }
  const code = (error as { code?: unknown }).code
  return {
    name: error.name,
    // One line: a start error is shown to the user, never a stack.
    message: error.message.split('\n')[0] ?? '',
    ...(typeof code === 'string' ? { code } : {}),
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

export function isHostRequest(value: unknown): value is HostRequest {
  if (!isObject(value)) return false
  if (value.type === 'start') return isObject(value.options)
  return (
    value.type === 'call' &&
    typeof value.id === 'number' &&
    typeof value.method === 'string' &&
    HOST_METHODS.includes(value.method)
  )
}

export function isHostMessage(value: unknown): value is HostMessage {
  if (!isObject(value)) return false
  switch (value.type) {
    case 'ready':
      return typeof value.url === 'string' && isObject(value.tokens)
    case 'failed':
      return isObject(value.error)
    case 'reply':
      return typeof value.id === 'number' && typeof value.ok === 'boolean'
    default:
      return false
  }
}
