import type { Session } from '../../../../shared/api'
import { displayValue, extraFields } from '../../lib/extra-fields'

/** The fields of the session object (the spec's 2.2); anything else is an extra. */
const SESSION_FIELDS = [
  'id',
  'authMethod',
  'createdAt',
  'lastSeenAt',
  'expiresAt',
  'ipAddress',
  'userAgent',
  'mfaSatisfiedAt',
  'isCurrent',
] as const

/** Fields the contract does not name, as a small "more" line under the session's id. */
export function ExtraFields({ session }: { session: Session }) {
  return <MoreFields extras={extraFields(session, SESSION_FIELDS)} />
}

/** Fields a reader did not name, shown as sent (the status page shows its extras so too). */
export function MoreFields({
  extras,
  label = 'More fields',
}: {
  extras: readonly (readonly [string, unknown])[]
  label?: string
}) {
  if (extras.length === 0) return null
  return (
    <dl className="extra-fields" aria-label={label}>
      {extras.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{displayValue(value)}</dd>
        </div>
      ))}
    </dl>
  )
}
