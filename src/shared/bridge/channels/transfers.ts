import { z } from 'zod'
import { id } from '../common'

/*
 * The transfers log: every file an export wrote (or tried to), from this run and earlier.
 * Shared by certificate exports, volume downloads and saved SQL results.
 */

export const TRANSFER_KINDS = ['certificate', 'volume', 'sql-result'] as const
export const TRANSFER_STATES = [
  'running',
  'completed',
  'failed',
  'cancelled',
  'interrupted',
] as const

export const transferSchema = z.object({
  id,
  profileId: z.string(),
  profileName: z.string(),
  kind: z.enum(TRANSFER_KINDS),
  /** What was exported, for people: "api.example.com (pkcs12)", "node-1 / pgdata". */
  label: z.string(),
  /** The ids and options it was made from (never a passphrase). */
  source: z.record(z.string(), z.unknown()),
  /** Final path on disk; null until it is complete. */
  destination: z.string().nullable(),
  bytesDone: z.number(),
  bytesTotal: z.number().nullable(),
  sha256: z.string().nullable(),
  state: z.enum(TRANSFER_STATES),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** Epoch ms. */
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
})
export type Transfer = z.infer<typeof transferSchema>

/** A row of `transfers.list`: also says whether a completed transfer's file is still on disk. */
export const listedTransferSchema = transferSchema.extend({
  /** True when the transfer completed but its file was since moved or deleted. */
  fileMissing: z.boolean().optional(),
})
export type ListedTransfer = z.infer<typeof listedTransferSchema>
