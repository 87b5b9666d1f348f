import type { IncomingMessage } from 'node:http'
import type { OperationName } from '../shared/api'
import type { Caller } from './auth'
import type { DownloadFaults, DownloadSigner } from './downloads'
import type { SandboxFlavor } from './flavor'
import type { RateLimiter } from './gateway'
import type { Reply } from './http'
import type { SandboxPki } from './pki/types'
import type { PostgresEngine } from './postgres/types'
import type { ValidatedRequest } from './router'
import type { SandboxState } from './state'
import type { VolumeArchive } from './volumes/types'

/** The parts of one running sandbox that handlers use. One per sandbox: no global state. */
export interface SandboxCore {
  /** The current state; replaced wholesale by a reset. */
  state: SandboxState
  readonly pki: SandboxPki
  readonly postgres: PostgresEngine
  /** Archives of the seeded volumes, by `volumeKey(nodeId, name)`; they never change. */
  readonly archives: ReadonlyMap<string, VolumeArchive>
  readonly downloads: DownloadSigner
  /** Test-only download cuts (`/__sandbox/downloads`); cleared by a reset. */
  readonly downloadFaults: DownloadFaults
  /** The sandbox's own absolute URL, e.g. http://127.0.0.1:4010 (known once listening). */
  readonly baseUrl: string
  /** Which personality answers (flavor.ts): `default`, `variant` or `gateway`. */
  readonly flavor: SandboxFlavor
  /** `flavor === 'variant'`: the other choice at every open point (kept for brevity). */
  readonly variant: boolean
  /** The gateway flavour's rate limit (gateway.ts); counts nothing in the other flavours. */
  readonly rateLimit: RateLimiter
  /** Op 5's bounds (SandboxOptions.sqlLimits): a real deployment's, or wide for benches. */
  readonly sqlLimits: 'service' | 'wide'
  now(): Date
}

export function volumeKey(nodeId: string, name: string): string {
  return `${nodeId}/${name}`
}

export interface HandlerContext<N extends OperationName> extends ValidatedRequest<N> {
  core: SandboxCore
  caller: Caller
  request: IncomingMessage
}

export type OperationHandler<N extends OperationName> = (
  context: HandlerContext<N>,
) => Reply | Promise<Reply>

export type OperationHandlers = { [N in OperationName]: OperationHandler<N> }
