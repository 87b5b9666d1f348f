import { create } from 'zustand'
import type { BridgeError, ListedTransfer, Transfer } from '../../../../shared/bridge'
import type { TransferProgress } from '../../../../shared/bridge/channels/volumes'
import { asBridgeError, bridge } from '../../bridge'
import { concerns } from '../../lib/cache-events'
import { addSample, type ThroughputSample } from './throughput'

/*
 * The transfers log as the renderer sees it: the rows (from SQLite, through `transfers.list`)
 * and, for the running ones, their live progress (events). Shared by the Transfers panel and
 * the volume export screen. Rows are refetched when the log changes (`cache.changed` on
 * the transfers topic, `transfers.finished`); progress never touches SQLite.
 */

interface TransfersState {
  rows: ListedTransfer[]
  progress: Record<string, TransferProgress>
  /** Per running transfer, bytes written over time (its sparkline), from the progress events. */
  throughput: Record<string, ThroughputSample[]>
  loaded: boolean
  error: BridgeError | null
  load(): Promise<void>
  /** Subscribes to the events; returns the unsubscribe function. Called once by the App. */
  connect(): () => void
  cancel(transferId: string): Promise<void>
}

const LIST_LIMIT = 500
let generation = 0
let connections = 0
let disconnect: (() => void) | null = null

export const useTransfersStore = create<TransfersState>()((set, get) => ({
  rows: [],
  progress: {},
  throughput: {},
  loaded: false,
  error: null,

  async load() {
    const mine = ++generation
    try {
      const [rows, active] = await Promise.all([
        bridge.call('transfers.list', { limit: LIST_LIMIT }),
        bridge.call('transfers.active', {}),
      ])
      if (mine !== generation) return
      const progress: Record<string, TransferProgress> = {}
      for (const item of active) progress[item.transferId] = get().progress[item.transferId] ?? item
      set({ rows, progress, loaded: true, error: null })
    } catch (error) {
      if (mine === generation) set({ error: asBridgeError(error), loaded: true })
    }
  },

  connect() {
    connections += 1
    if (disconnect === null) {
      const stops = [
        bridge.on('transfers.progress', (progress) => {
          set((state) => ({
            progress: { ...state.progress, [progress.transferId]: progress },
            throughput: {
              ...state.throughput,
              [progress.transferId]: addSample(state.throughput[progress.transferId], {
                at: Date.now(),
                bytesDone: progress.bytesDone,
              }),
            },
          }))
        }),
        bridge.on('transfers.finished', (transfer) => {
          set((state) => {
            const progress = { ...state.progress }
            delete progress[transfer.id]
            const throughput = { ...state.throughput }
            delete throughput[transfer.id]
            const known = state.rows.some((row) => row.id === transfer.id)
            const rows = known
              ? state.rows.map((row) => (row.id === transfer.id ? transfer : row))
              : [transfer, ...state.rows]
            return { rows, progress, throughput }
          })
        }),
        bridge.on('cache.changed', (change) => {
          if (concerns(change, ['transfers'])) void get().load()
        }),
      ]
      disconnect = () => stops.forEach((stop) => stop())
    }
    void get().load()
    return () => {
      connections -= 1
      if (connections === 0 && disconnect !== null) {
        disconnect()
        disconnect = null
      }
    }
  },

  async cancel(transferId) {
    try {
      await bridge.call('transfers.cancel', { transferId })
    } catch (error) {
      set({ error: asBridgeError(error) })
    }
  },
}))

/** A running row's live progress, or what the log last recorded. */
export function progressOf(
  transfer: Transfer,
  progress: Record<string, TransferProgress>,
): TransferProgress {
  return (
    progress[transfer.id] ?? {
      transferId: transfer.id,
      bytesDone: transfer.bytesDone,
      bytesTotal: transfer.bytesTotal,
      bytesPerSecond: null,
      secondsLeft: null,
      resumes: 0,
      restarts: 0,
      phase: 'downloading',
    }
  )
}
