/*
 * How a volume archive is named wherever a person reads it: a Transfers row and its buttons'
 * names, the throughput sparkline, the Volume export screen, the activity log, notifications.
 * The volume first, since that is what one looks for (a node's UUID first left only a few of
 * its characters in a narrow column and cut the volume's name); its node after it, whole, so
 * the label tells two volumes of one name on two nodes apart and the id can be read out of it.
 */

export interface VolumeArchive {
  /** The volume's name on its node. */
  name: string
  nodeId: string
  /** The node's name when an answer of the service named it; null or absent otherwise. */
  nodeName?: string | null
}

/** "pgdata · node docker-fra-01 (3f2a…)" when the node's name is known, else "pgdata · node 3f2a…". */
export function volumeArchiveLabel({ name, nodeId, nodeName }: VolumeArchive): string {
  const named = typeof nodeName === 'string' && nodeName !== '' && nodeName !== nodeId
  return `${name} · node ${named ? `${nodeName} (${nodeId})` : nodeId}`
}

/**
 * The volume and node a logged transfer archived, read from its source; null when it is no
 * volume archive or its source lacks either.
 */
export function volumeArchiveOf(transfer: {
  kind: string
  source: Record<string, unknown>
}): { name: string; nodeId: string } | null {
  const { nodeId, name } = transfer.source
  return transfer.kind === 'volume' && typeof nodeId === 'string' && typeof name === 'string'
    ? { name, nodeId }
    : null
}
