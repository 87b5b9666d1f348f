import { isRecord } from './call'
import { ValueTable } from './ValueTable'

/** The service's answer, whole, under a heading; nothing when the answer is not an object. */
export function AnswerSection({
  heading,
  label,
  value,
}: {
  heading: string
  /** The table's accessible name. */
  label: string
  value: unknown
}) {
  if (!isRecord(value)) return null
  return (
    <div className="op-section">
      <h2>{heading}</h2>
      <ValueTable value={value} label={label} />
    </div>
  )
}
