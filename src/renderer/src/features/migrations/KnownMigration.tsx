import { operationTitle } from '../activity/filters'
import { useKnownLookup } from '../../lib/known-objects'
import { formatLocalFull } from '../../lib/time'
import { KnownName } from '../../ui/KnownName'
import { MigrationPhase, MigrationStatus } from './MigrationStatus'
import { migrationStatusLabel } from './words'

/*
 * What the app knows of a migration before it is resolved. The service has no operation that
 * reads a migration, so this is only what an earlier answer carried (op 13's, on this
 * profile): its nodes, what it moves, its last known status, phase and, when the answer gave
 * one, its reason (error code and message), with when that was. Saying "nothing yet" plainly
 * matters as much: the dialog then asks the operator to confirm they checked the service's
 * console (ResolveMigrationDialog).
 */
export function KnownMigration({ profileId, id }: { profileId: string; id: string }) {
  const { object, settled } = useKnownLookup(profileId, id)
  if (!settled) return null
  if (object === null || object.kind !== 'migration') {
    return (
      <div className="known-migration" role="note" aria-label="What Infradesk knows">
        <p>
          Infradesk knows nothing of this migration yet: no answer of the service has carried it on
          this profile, so it cannot show what it moves, its nodes, its status or why it stopped.
          Check them in the service's console before resolving.
          {object !== null ? (
            <>
              {' '}
              This id is known as a {object.kind.replace(/-/g, ' ')}:{' '}
              <KnownName profileId={profileId} id={id} />.
            </>
          ) : null}
        </p>
      </div>
    )
  }
  const { fields } = object
  const resource = [fields['resourceType'], fields['resourceName']].filter(Boolean).join(' ')
  const reason = [fields['errorCode'], fields['errorMessage']].filter(Boolean)
  return (
    <div className="known-migration" role="note" aria-label="What Infradesk knows">
      <p className="known-migration-intro">
        What Infradesk last saw of this migration, {formatLocalFull(object.seenAt)} (
        {operationTitle(object.operation).toLowerCase()}):
      </p>
      <table className="kv-table" aria-label="Known migration">
        <tbody>
          <tr>
            <th scope="row">Last known status</th>
            <td>
              {object.status === null ? (
                <span className="muted">not known</span>
              ) : (
                <MigrationStatus status={object.status} raw />
              )}
            </td>
          </tr>
          {fields['phase'] !== undefined ? (
            <tr>
              <th scope="row">Phase</th>
              <td>
                <MigrationPhase phase={fields['phase']} />
              </td>
            </tr>
          ) : null}
          <tr>
            <th scope="row">Reason</th>
            <td>
              {reason.length === 0 ? (
                <span className="muted">not in that answer</span>
              ) : (
                <>
                  {fields['errorCode'] ? <code>{fields['errorCode']}</code> : null}
                  {fields['errorCode'] && fields['errorMessage'] ? ' — ' : null}
                  {fields['errorMessage'] ?? null}
                </>
              )}
            </td>
          </tr>
          <tr>
            <th scope="row">Resource</th>
            <td>{resource === '' ? <span className="muted">not known</span> : resource}</td>
          </tr>
          <NodeRow label="Source node" profileId={profileId} id={fields['sourceNodeId']} />
          <NodeRow label="Target node" profileId={profileId} id={fields['targetNodeId']} />
        </tbody>
      </table>
      {object.status !== null && object.status !== 'needs_attention' ? (
        <p className="known-migration-stale">
          Then it was {migrationStatusLabel(object.status).toLowerCase()}, not waiting for an
          operator: it may not need resolving any more.
        </p>
      ) : null}
    </div>
  )
}

function NodeRow({
  label,
  profileId,
  id,
}: {
  label: string
  profileId: string
  id: string | undefined
}) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>
        {id === undefined ? (
          <span className="muted">not known</span>
        ) : (
          <KnownName profileId={profileId} id={id} />
        )}
      </td>
    </tr>
  )
}
