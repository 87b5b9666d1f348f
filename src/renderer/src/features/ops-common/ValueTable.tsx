import { formatLocalFull, parseTimestamp } from '../../lib/time'
import { KnownName } from '../../ui/KnownName'
import { isRecord } from './call'

/*
 * An answer shown whole, as readable key/value rows: nested objects become nested tables,
 * lists of plain values are joined, ISO timestamps are shown in local time beside the exact
 * value. Never a JSON dump: unknown fields are shown like known ones.
 */

/** A UUID in an answer is an object's id: shown with its name when one is known. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/

function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">—</span>
  if (typeof value === 'boolean') return <>{value ? 'yes' : 'no'}</>
  if (typeof value === 'string') {
    if (value === '') return <span className="muted">(empty)</span>
    if (ISO_TIME.test(value)) {
      const at = parseTimestamp(value)
      if (at !== null) {
        return (
          <time dateTime={value} title={value}>
            {formatLocalFull(at)}
          </time>
        )
      }
    }
    if (UUID.test(value)) return <KnownName id={value} />
    return <span className="value-text">{value}</span>
  }
  return <>{String(value)}</>
}

function Value({ value, depth }: { value: unknown; depth: number }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>
    if (value.every((item) => !isRecord(item) && !Array.isArray(item))) {
      return (
        <ul className="value-list">
          {value.map((item, index) => (
            <li key={index}>
              <Scalar value={item} />
            </li>
          ))}
        </ul>
      )
    }
    return (
      <ol className="value-list">
        {value.map((item, index) => (
          <li key={index}>
            <Value value={item} depth={depth + 1} />
          </li>
        ))}
      </ol>
    )
  }
  if (isRecord(value)) return <ValueTable value={value} depth={depth + 1} />
  return <Scalar value={value} />
}

export function ValueTable({
  value,
  label,
  depth = 0,
}: {
  value: Record<string, unknown>
  /** The table's accessible name (top level). */
  label?: string
  depth?: number
}) {
  const entries = Object.entries(value)
  if (entries.length === 0) return <span className="muted">(no fields)</span>
  return (
    <table className={`value-table${depth > 0 ? ' value-table-nested' : ''}`} aria-label={label}>
      <tbody>
        {entries.map(([key, item]) => (
          <tr key={key}>
            <th scope="row">{key}</th>
            <td>
              <Value value={item} depth={depth} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
