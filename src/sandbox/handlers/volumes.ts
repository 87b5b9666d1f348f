import { randomUUID } from 'node:crypto'
import { volumeKey, type OperationHandler } from '../context'
import { notFound } from '../failure'
import { GatewayFailure } from '../gateway'
import { bytes, json } from '../http'
import type { VolumeArchive } from '../volumes/types'

/**
 * The variant inlines archives up to this size as base64 `content` (a 16 MiB archive is a
 * ~22 MB answer, under the app's 64 MiB response limit); a larger one (the 1 GiB volume) still
 * gets a link, as a service that inlines small exports would have to.
 */
export const VARIANT_INLINE_MAX_BYTES = 16 * 1024 * 1024

/**
 * The gateway flavour sends the archive itself, held whole in memory as a real deployment holds
 * it (the node daemon's export is one buffer there too); past this size the sandbox refuses
 * rather than hold it (the seeded 1 GiB volume), with the 500 a real one would fail with.
 */
export const GATEWAY_RAW_MAX_BYTES = 128 * 1024 * 1024

/** A real deployment's file name for an export: the volume's name, `[^a-zA-Z0-9._-]` as `_`. */
export function gatewayArchiveName(volumeName: string): string {
  return `${volumeName.replace(/[^a-zA-Z0-9._-]/g, '_')}.tar.gz`
}

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

  if (core.flavor === 'gateway') {
    // The `.tar.gz` itself: no envelope, no size or digest announced, no Range (none is read).
    if (archive.sizeBytes > GATEWAY_RAW_MAX_BYTES) {
      throw new GatewayFailure(500, 'INTERNAL_ERROR', 'An unexpected error occurred')
    }
    return bytes(await readWhole(archive), {
      'Content-Type': 'application/gzip',
      'Content-Disposition': `attachment; filename="${gatewayArchiveName(name)}"`,
    })
  }
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
