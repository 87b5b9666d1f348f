import { randomUUID } from 'node:crypto'
import { volumeKey, type OperationHandler } from '../context'
import { notFound } from '../failure'
import { json } from '../http'

/**
 * Op 15: describes the archive and hands out a signed, expiring link on the sandbox that
 * streams it (no bearer token needed; GET, HEAD and Range work there).
 */
const exportVolume: OperationHandler<'exportVolume'> = async ({ core, params }) => {
  const { nodeId, name } = params
  if (!core.state.nodes.some((node) => node.id === nodeId)) {
    throw notFound({ resource: 'node', id: nodeId })
  }
  const volume = core.state.volumes.find(
    (candidate) => candidate.nodeId === nodeId && candidate.name === name,
  )
  const archive = core.archives.get(volumeKey(nodeId, name))
  if (!volume || !archive) throw notFound({ resource: 'volume', nodeId, name })

  const sha256 = await archive.sha256()
  const link = core.downloads.sign(core.baseUrl, { nodeId, name }, core.now())
  return json({
    data: {
      id: randomUUID(),
      name,
      nodeId,
      format: 'tar.gz',
      filename: `${name}.tar.gz`,
      sizeBytes: archive.sizeBytes,
      sha256,
      downloadUrl: link.url,
      expiresAt: link.expiresAt.toISOString(),
    },
  })
}

export const volumeHandlers = { exportVolume }
