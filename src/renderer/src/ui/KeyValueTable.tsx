import { displayValue } from '../lib/extra-fields'
import './key-value.css'
import { formatLocalFull, parseTimestamp, toIso } from '../lib/time'

/*
 * A free-form object (a migration's `progress`, `verification`, the fields a service adds) as a
 * readable two-column table, never as JSON: nested objects become nested tables, lists are
 * joined, and timestamps (keys ending in "At" holding a date) read in local time.
 */

interface KeyValueTableProps {
  /** The table's accessible name. */
  label: string
  value: Record<string, unknown>
  /** Shown when the object has no keys. */
  empty?: string
}

export function KeyValueTable({ label, value, empty = 'No entries' }: KeyValueTableProps) {
  const entries = Object.entries(value)
  if (entries.length === 0) return <p className="muted kv-empty">{empty}</p>
  return (
    <table className="kv-table" aria-label={label}>
      <tbody>
        {entries.map(([key, item]) => (
          <tr key={key}>
            <th scope="row">{key}</th>
            <td>
              <KeyValue name={key} value={item} label={`${label}: ${key}`} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** One value: a nested table for an object, local time for a timestamp, plain text otherwise. */
export function KeyValue({ name, value, label }: { name: string; value: unknown; label: string }) {
  if (isPlainObject(value)) return <KeyValueTable label={label} value={value} empty="(empty)" />
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">(none)</span>
    if (value.every((item) => !isPlainObject(item))) {
      return <span className="kv-value">{value.map(displayValue).join(', ')}</span>
    }
    return (
      <KeyValueTable
        label={label}
        value={Object.fromEntries(value.map((item, index) => [String(index + 1), item]))}
      />
    )
  }
  const time = timestampOf(name, value)
  if (time !== null) {
    return (
      <time className="kv-value" dateTime={toIso(time)} title={String(value)}>
        {formatLocalFull(time)}
      </time>
    )
  }
  if (value === null || value === undefined) return <span className="muted">—</span>
  return <span className="kv-value">{displayValue(value)}</span>
}

/**
 * Epoch ms for a timestamp field ("…At" holding ISO 8601 or epoch seconds/milliseconds, read
 * by the app's one timestamp reader), else null.
 */
export function timestampOf(name: string, value: unknown): number | null {
  if (!/At$/.test(name) || typeof value === 'boolean') return null
  return parseTimestamp(value)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
