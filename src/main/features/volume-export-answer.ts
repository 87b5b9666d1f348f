import type { VolumeExport } from '../../shared/api'
import { operations } from '../../shared/api'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from '../api'
import type { ServiceClient } from '../api'
import { parseAnswer, parseJsonBody } from '../api/answer-checks'
import type { AtomicFile, Collision, CommittedFile } from '../transfers'
import type { JobReporter } from '../transfers/jobs'
import { verifyArchive } from '../transfers/volume-archive'

/*
 * Op 15's answer, whichever of its shapes the service sends: the JSON description (a download
 * link, or inline base64 content), or a real deployment's `.tar.gz` itself (`application/gzip`).
 * One request decides, made as every GET of the app is (client.callBytes: retried on a 5xx or a
 * reset, timed out, its errors named): a body that begins as gzip does is the archive; any
 * other body is read as the JSON description, with the contract's checks. Asking twice is no
 * option: a real deployment builds the whole export before it answers.
 *
 * The archive comes whole, as the client reads any answer (at most its 64 MiB answer limit): a
 * real deployment holds the whole export in memory to send it, too. A larger one fails with the
 * client's own "too large" error; streaming it needs a streaming GET in the client.
 */

export type OpenedExport =
  | { kind: 'described'; exported: VolumeExport }
  | { kind: 'raw'; exported: VolumeExport; archive: Buffer }

/** The two bytes every gzip stream starts with (RFC 1952, ID1 and ID2). */
function isGzip(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
}

/** Asks op 15 once and says which answer came: described (JSON) or the archive itself. */
export async function openVolumeExport(
  client: ServiceClient,
  nodeId: string,
  name: string,
): Promise<OpenedExport> {
  const bytes = await client.callBytes('exportVolume', { params: { nodeId, name } })
  if (isGzip(bytes)) {
    return {
      kind: 'raw',
      archive: bytes,
      exported: { name, nodeId, format: 'tar.gz', sizeBytes: bytes.length },
    }
  }
  // The content type is not kept by callBytes: a body that is not JSON is said as such.
  const value = parseJsonBody('exportVolume', 200, null, bytes.toString('utf8'))
  const answer = parseAnswer('exportVolume', operations.exportVolume.response, value)
  return { kind: 'described', exported: answer.data }
}

export interface RawArchiveJob {
  opened: Extract<OpenedExport, { kind: 'raw' }>
  file: AtomicFile
  collision: Collision
  signal: AbortSignal
  reporter: JobReporter
}

/** Bytes written between progress reports and cancel checks. */
const SLICE_BYTES = 1024 * 1024

/**
 * Writes the archive op 15 sent as its answer, in slices so that progress and cancel work as
 * they do for a download; the SHA-256 is computed as it is written (the answer announces none)
 * and kept with the transfer.
 */
export async function writeRawArchive(job: RawArchiveJob): Promise<CommittedFile> {
  const { opened, file, reporter, signal } = job
  const { archive } = opened
  try {
    for (let offset = 0; offset < archive.length; offset += SLICE_BYTES) {
      if (signal.aborted) {
        throw new ServiceError(APP_ERROR_CODES.CANCELLED, 'Cancelled: no file was written')
      }
      await file.write(archive.subarray(offset, offset + SLICE_BYTES))
      reporter.progress({
        bytesDone: file.size,
        bytesTotal: archive.length,
        resumes: 0,
        restarts: 0,
      })
    }
    reporter.verifying()
    return await file.commit({
      collision: job.collision,
      verify: (written) => verifyArchive(written, opened.exported),
    })
  } catch (error) {
    await file.abort()
    throw error
  }
}
