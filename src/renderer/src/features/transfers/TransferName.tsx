import type { Transfer } from '../../../../shared/bridge'
import { volumeArchiveOf } from '../../../../shared/volume-archive-label'
import { useKnownObject } from '../../lib/known-objects'
import { CopyButton } from '../../ui/CopyButton'

/*
 * A transfer's name in the Transfers table. A volume archive reads by its volume, whole, on its
 * own line (what a person looks for); its node follows, by name when an answer named it, else
 * the id's first characters, with the whole id in the title and copied by Copy. The label
 * (shared/volume-archive-label.ts) carries the whole id into the title and buttons' names.
 */

const KIND_LABELS: Record<Transfer['kind'], string> = {
  certificate: 'Certificate export',
  volume: 'Volume archive',
  'sql-result': 'SQL result',
}

/** The first characters of a node's id, enough to tell nodes apart by eye. */
function shortId(id: string): string {
  return id.length <= 12 ? id : `${id.slice(0, 8)}…`
}

export function TransferName({ transfer }: { transfer: Transfer }) {
  const volume = volumeArchiveOf(transfer)
  return (
    <div className="cell-stack">
      {volume === null ? (
        // One line, ellipsised; the whole name in the title.
        <span className="transfer-label" title={transfer.label}>
          {transfer.label}
        </span>
      ) : (
        <>
          <span className="transfer-label transfer-volume-name" title={transfer.label}>
            <span className="transfer-volume-text">{volume.name}</span>
          </span>
          <VolumeNode transfer={transfer} nodeId={volume.nodeId} />
        </>
      )}
      {/* The profile under the kind, not a column of its own: at 1280×800 the table must fit. */}
      <span className="muted">
        {KIND_LABELS[transfer.kind]} · {transfer.profileName}
      </span>
    </div>
  )
}

function VolumeNode({ transfer, nodeId }: { transfer: Transfer; nodeId: string }) {
  const known = useKnownObject(transfer.profileId, nodeId)
  const nodeName = known?.name && known.name !== nodeId ? known.name : null
  return (
    <span className="transfer-node">
      <span className="muted transfer-node-name" title={nodeId}>
        node {nodeName ?? <span className="transfer-node-id">{shortId(nodeId)}</span>}
      </span>
      <CopyButton
        value={nodeId}
        what={`the node id of ${transfer.label}`}
        copiedNote="Node id copied"
      />
    </span>
  )
}
