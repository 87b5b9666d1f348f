import { z } from 'zod'
import { empty, id } from '../common'
import { WEB_DOWNLOAD_PREFIX } from '../web-protocol'
import { listedTransferSchema, transferSchema } from './transfers'

/*
 * Volume export (op 15) streamed to disk with progress, cancel and resume, and the Transfers
 * panel (the log of every export, src/shared/bridge/channels/transfers.ts).
 * Channels and events of this area; contract.ts spreads them into the one bridge contract.
 */

export const volumeExportInputSchema = z.lazy(() =>
  z.object({
    profileId: id,
    nodeId: z.string().trim().min(1, 'Enter a node id').max(200, 'At most 200 characters'),
    name: z.string().trim().min(1, 'Enter a volume name').max(255, 'At most 255 characters'),
  }),
)
export type VolumeExportInput = z.input<typeof volumeExportInputSchema>

/** A running transfer's progress, pushed at most every 100 ms and once at each change of step. */
export const transferProgressSchema = z.lazy(() =>
  z.object({
    transferId: id,
    bytesDone: z.number(),
    bytesTotal: z.number().nullable(),
    /** Over the last few seconds; null until there is enough to tell. */
    bytesPerSecond: z.number().nullable(),
    /** Null while the size or the rate is unknown. */
    secondsLeft: z.number().nullable(),
    /** Resumes after a dropped connection (Range requests). */
    resumes: z.int(),
    /** Restarts from zero (a server that ignored Range, a changed file). */
    restarts: z.int(),
    /** `downloading`, then `verifying` (fsync, size and SHA-256 checks, rename). */
    phase: z.enum(['downloading', 'verifying']),
  }),
)
export type TransferProgress = z.infer<typeof transferProgressSchema>

export const volumeChannels = {
  /**
   * Op 15, then the archive streamed to disk in the background. Answers once the file is
   * opened, with the running transfer; progress and the end come as events. Electron asks
   * where to save (a cancelled dialog is CANCELLED); web mode uses the downloads folder.
   */
  'volumes.export': () => ({ input: volumeExportInputSchema, output: transferSchema }),
  /** Cancels a running transfer; its temp file is removed. False when it is not running. */
  'transfers.cancel': () => ({
    input: z.object({ transferId: id }),
    output: z.object({ cancelled: z.boolean() }),
  }),
  /** Progress of every transfer running now (a screen opened mid-transfer starts from it). */
  'transfers.active': () => ({ input: empty, output: z.array(transferProgressSchema) }),
  /** The transfers log, newest first: this run's and earlier runs'. */
  'transfers.list': () => ({
    input: z.object({ profileId: id.optional(), limit: z.int().min(1).max(1000).default(200) }),
    output: z.array(listedTransferSchema),
  }),
  /**
   * A failed, cancelled or interrupted volume download, exported again from the same node and
   * volume (op 15 again: the old link may have expired). Answers with the new running transfer.
   */
  'transfers.retry': () => ({ input: z.object({ transferId: id }), output: transferSchema }),
  /**
   * Web mode: a one-time address on the host that serves a completed transfer's file once, as
   * an attachment (a browser download cannot send the launch secret's header).
   */
  'transfers.downloadTicket': () => ({
    input: z.object({ transferId: id }),
    output: z.object({ path: z.string().startsWith(WEB_DOWNLOAD_PREFIX) }),
  }),
  /**
   * Electron: shows the file in the file manager, or opens its folder. Web mode has no file
   * manager to open (the renderer copies the path instead): `shown` is false there.
   */
  'transfers.reveal': () => ({
    input: z.object({ transferId: id, target: z.enum(['file', 'folder']) }),
    output: z.object({ shown: z.boolean() }),
  }),
} as const

export const volumeEvents = {
  'transfers.progress': () => transferProgressSchema,
  /** A transfer ended (completed, failed, cancelled, interrupted); the row as logged. */
  'transfers.finished': () => transferSchema,
} as const
