import { isRecord } from './call'
import { ValueTable } from './ValueTable'

/**
 * The service's answer, whole, under "The <noun> as the service returned it"; nothing when the
 * answer is not an object.
 */
export function AnswerSection({
  noun,
  label,
  value,
}: {
  /** What the write returned, e.g. "job". */
  noun: string
  /** The table's accessible name. */
  label: string
  value: unknown
}) {
  if (!isRecord(value)) return null
  return (
    <div className="op-section">
      <h2>The {noun} as the service returned it</h2>
      <ValueTable value={value} label={label} />
    </div>
  )
}
