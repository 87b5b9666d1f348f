import { operationTitle } from '../activity/filters'
import { useKnownLookup } from '../../lib/known-objects'
import { formatLocalFull } from '../../lib/time'
import { Badge } from '../../ui/Badge'
import { KnownName } from '../../ui/KnownName'
import { statusTone } from './MigrationDetails'

/*
 * What the app knows of a migration before it is resolved. The service has no operation that
 * reads a migration, so this is only what an earlier answer carried (op 13's, on this
 * profile): its nodes, what it moves and its last known status, with when that was. Saying
 * "nothing yet" plainly matters as much: the operator then checks the service's console.
 */
export function KnownMigration({ profileId, id }: { profileId: string; id: string }) {
  const { object, settled } = useKnownLookup(profileId, id)
  if (!settled) return null
  if (object === null || object.kind !== 'migration') {
    return (
      <div className="known-migration" role="note" aria-label="What Infradesk knows">
        <p>
          Infradesk knows nothing of this migration yet: no answer of the service has carried it on
          this profile. Check its nodes and status in the service's console before resolving.
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
                <Badge tone={statusTone(object.status)}>{object.status}</Badge>
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
