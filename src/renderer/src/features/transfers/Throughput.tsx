import type { TransferProgress } from '../../../../shared/bridge/channels/volumes'
import { Sparkline } from '../../ui/charts/Sparkline'
import { formatRate } from './format'
import { averageRate, ratesOf, readingTime, type ThroughputSample } from './throughput'

/*
 * A running transfer's throughput: the rate between progress events as a sparkline,
 * and in words the current rate (main's, over its last seconds) and the average since it began.
 */

export function ThroughputView({
  label,
  samples,
  progress,
  startedAt,
  now,
}: {
  label: string
  samples: readonly ThroughputSample[] | undefined
  progress: TransferProgress
  startedAt: number
  now: number
}) {
  const rates = ratesOf(samples ?? [])
  const current = formatRate(progress.bytesPerSecond)
  const average = formatRate(averageRate(progress.bytesDone, startedAt, readingTime(samples, now)))
  const peak = rates.length === 0 ? '—' : formatRate(Math.max(...rates))
  return (
    <div className="transfer-throughput">
      <Sparkline
        values={rates}
        label={`Throughput of ${label} over the last ${rates.length} readings: now ${current}, average ${average}, peak ${peak}`}
      />
      <span className="transfer-throughput-figures" data-testid="transfer-throughput">
        <span>Now {current}</span>
        <span>Average {average}</span>
      </span>
    </div>
  )
}
