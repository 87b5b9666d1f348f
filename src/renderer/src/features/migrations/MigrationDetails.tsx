import type { Migration } from '../../../../shared/api'
import { extraFields } from '../../lib/extra-fields'
import { KeyValue, KeyValueTable } from '../../ui/KeyValueTable'
import { KnownName } from '../../ui/KnownName'
import { MigrationProgress } from './MigrationProgress'
import { MigrationPhase, MigrationStatus } from './MigrationStatus'
import { yesNo } from './words'

/*
 * A migration object (the spec's 2.4) shown whole: every field the contract names, in a
 * fixed order and with words for labels and for the status, phase and yes/no values (the value
 * as sent beside the words); `progress` and `verification` as key/value tables;
 * timestamps in local time; then every field the service added (lock, maintenance mode...).
 */

const FIELDS: { key: keyof Migration; label: string }[] = [
  { key: 'id', label: 'Id' },
  { key: 'resourceType', label: 'Resource type' },
  { key: 'resourceName', label: 'Resource name' },
  { key: 'deploymentId', label: 'Deployment id' },
  { key: 'sourceNodeId', label: 'Source node' },
  { key: 'targetNodeId', label: 'Target node' },
  { key: 'targetNodeSlug', label: 'Target node slug' },
  { key: 'targetResourceId', label: 'Target resource id' },
  { key: 'keepSource', label: 'Keep source' },
  { key: 'sourceState', label: 'Source state' },
  { key: 'phase', label: 'Phase' },
  { key: 'errorCode', label: 'Error code' },
  { key: 'errorMessage', label: 'Error message' },
  { key: 'cancellationRequestedAt', label: 'Cancellation requested' },
  { key: 'cutoverAt', label: 'Cut over' },
  { key: 'createdAt', label: 'Created' },
  { key: 'startedAt', label: 'Started' },
  { key: 'updatedAt', label: 'Updated' },
  { key: 'completedAt', label: 'Completed' },
]

/** Fields holding another object's id: shown with the name an answer gave it. */
const ID_FIELDS: readonly (keyof Migration)[] = ['deploymentId', 'sourceNodeId', 'targetNodeId']

const KNOWN = ['status', 'progress', 'verification', ...FIELDS.map((field) => field.key)]

export function MigrationDetails({ migration }: { migration: Migration }) {
  const extras = extraFields(migration, KNOWN)
  const label = `Migration ${migration.resourceName}`
  return (
    <div className="migration-details">
      <table className="kv-table" aria-label={label}>
        <tbody>
          <tr>
            <th scope="row">Status</th>
            <td>
              <MigrationStatus status={migration.status} raw />
            </td>
          </tr>
          {FIELDS.map(({ key, label: fieldLabel }) => (
            <tr key={key}>
              <th scope="row">{fieldLabel}</th>
              <td>
                {ID_FIELDS.includes(key) && typeof migration[key] === 'string' ? (
                  <KnownName id={migration[key]} />
                ) : key === 'phase' && typeof migration.phase === 'string' ? (
                  <MigrationPhase phase={migration.phase} />
                ) : yesNo(migration[key]) !== null ? (
                  <span className="kv-value">{yesNo(migration[key])}</span>
                ) : (
                  <KeyValue name={key} value={migration[key]} label={`${label}: ${fieldLabel}`} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <MigrationProgress migration={migration} />
      <div className="migration-tables">
        <section aria-label="Progress">
          <h3>Progress</h3>
          <KeyValueTable label="Progress" value={migration.progress} />
        </section>
        <section aria-label="Verification">
          <h3>Verification</h3>
          <KeyValueTable label="Verification" value={migration.verification} />
        </section>
      </div>
      {extras.length > 0 ? (
        <section aria-label="Other fields">
          <h3>Other fields from the service</h3>
          <KeyValueTable label="Other fields" value={Object.fromEntries(extras)} />
        </section>
      ) : null}
    </div>
  )
}
