import { randomUUID } from 'node:crypto'
import { volumeKey, type OperationHandler } from '../context'
import { notFound } from '../failure'
import { json } from '../http'
import type { VolumeArchive } from '../volumes/types'

/**
 * The variant inlines archives up to this size as base64 `content` (a 16 MiB archive is a
 * ~22 MB answer, under the app's 64 MiB response limit); a larger one (the 1 GiB volume) still
 * gets a link, as a service that inlines small exports would have to.
 */
export const VARIANT_INLINE_MAX_BYTES = 16 * 1024 * 1024

/**
 * Op 15: describes the archive and hands out a signed, expiring link on the sandbox that
 * streams it (no bearer token needed; GET, HEAD and Range work there). The variant sends the
 * archive itself, base64 in `content`, in place of `downloadUrl` and `expiresAt`: the other
 * reasonable reading of "response shape of the export beyond the envelope: not shown".
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
  const described = {
    id: randomUUID(),
    name,
    nodeId,
    format: 'tar.gz',
    filename: `${name}.tar.gz`,
    sizeBytes: archive.sizeBytes,
    sha256,
  }
  if (core.variant && archive.sizeBytes <= VARIANT_INLINE_MAX_BYTES) {
    const content = (await readWhole(archive)).toString('base64')
    return json({ data: { ...described, encoding: 'base64', content } })
  }
  const link = core.downloads.sign(core.baseUrl, { nodeId, name }, core.now())
  return json({
    data: { ...described, downloadUrl: link.url, expiresAt: link.expiresAt.toISOString() },
  })
}

async function readWhole(archive: VolumeArchive): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of archive.createReadStream()) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export const volumeHandlers = { exportVolume }
