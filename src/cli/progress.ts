import { SingleBar } from 'cli-progress'
import type { TransferProgress } from '../shared/bridge/channels/volumes'

/*
 * A download's progress bar (cli-progress), on stderr and only when stderr is a terminal: a
 * pipe or a CI log gets nothing, and stdout stays clean for `--json`.
 */

export interface ProgressDisplay {
  start(total: number | null): void
  update(progress: TransferProgress): void
  stop(): void
}

const MIB = 1024 * 1024

export function createProgressDisplay(
  stream: NodeJS.WriteStream = process.stderr,
): ProgressDisplay {
  if (!stream.isTTY) return { start() {}, update() {}, stop() {} }
  const bar = new SingleBar({
    stream,
    format: '{bar} {percentage}% | {doneMib}/{totalMib} MiB | {rate} | {phase}',
    hideCursor: true,
    clearOnComplete: false,
    // Redrawn at most this often, whatever the desk's progress events say.
    fps: 10,
  })
  let running = false
  let total = 0
  const payload = (progress: TransferProgress | null) => ({
    doneMib: ((progress?.bytesDone ?? 0) / MIB).toFixed(1),
    totalMib: total > 0 ? (total / MIB).toFixed(1) : '?',
    rate:
      progress?.bytesPerSecond == null
        ? '-'
        : `${(progress.bytesPerSecond / MIB).toFixed(1)} MiB/s`,
    phase:
      progress === null
        ? 'starting'
        : `${progress.phase}${progress.resumes > 0 ? ` (resumed ${progress.resumes}x)` : ''}`,
  })
  return {
    start(bytesTotal) {
      total = bytesTotal ?? 0
      bar.start(Math.max(total, 1), 0, payload(null))
      running = true
    },
    update(progress) {
      if (!running) return
      if (progress.bytesTotal !== null && progress.bytesTotal !== total) {
        total = progress.bytesTotal
        bar.setTotal(total)
      }
      bar.update(progress.bytesDone, payload(progress))
    },
    stop() {
      if (!running) return
      running = false
      bar.stop()
    },
  }
}
