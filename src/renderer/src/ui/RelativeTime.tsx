import { describeTime, formatLocal, isValidTime, toIso, type Tense } from '../lib/time'
import { useNow } from './useNow'
import './relative-time.css'

interface RelativeTimeProps {
  /** Epoch milliseconds. */
  at: number
  /** Also show the absolute local time (stacked above the relative one). */
  withLocal?: boolean
  /**
   * 'past' (the default) for something that happened: never worded in the future, however far
   * the service's clock runs ahead. 'any' for times that may lie ahead (an expiry).
   */
  tense?: Tense
}

/** "3 min ago", re-rendered every 30 s; the exact local time is always in the tooltip. */
export function RelativeTime({ at, withLocal = false, tense = 'past' }: RelativeTimeProps) {
  const now = useNow()
  if (!isValidTime(at)) return <span className="muted">invalid time ({String(at)})</span>
  const { relative, tooltip: full } = describeTime(at, now, tense)
  if (!withLocal) {
    return (
      <time dateTime={toIso(at)} title={full}>
        {relative}
      </time>
    )
  }
  return (
    <time className="time-pair" dateTime={toIso(at)} title={full}>
      <span className="time-local">{formatLocal(at)}</span>
      <span className="time-relative">{relative}</span>
    </time>
  )
}
