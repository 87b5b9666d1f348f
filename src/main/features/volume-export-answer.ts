import type { VolumeExport } from '../../shared/api'
import { operations } from '../../shared/api'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from '../api'
import type { AnswerControl, AnswerSink, ServiceClient } from '../api/client'
import { badResponse, mainMediaType, parseAnswer, parseJsonBody } from '../api/answer-checks'
import { filenameFromContentDisposition } from '../api/content-disposition'
import type { AtomicFile, Collision, CommittedFile } from '../transfers'
import type { JobProgress, JobReporter } from '../transfers/jobs'
import { verifyArchive } from '../transfers/volume-archive'

/*
 * Op 15's answer, whichever of its shapes the service sends: the JSON description (a download
 * link, or inline base64 content), or a real deployment's `.tar.gz` itself (`application/gzip`).
 * One request decides (asking twice is no option: a real deployment builds the whole export
 * before it answers), made as every GET of the app is (retried on a 5xx, a reset or a cut,
 * timed out, its errors named) through the client's streamed answer: a JSON answer is held and
 * read with the contract's checks; the archive is written to the export's temp file as it
 * arrives, hashed on the way by the writer, never held whole, whatever its size. A retry after
 * a break starts the file again.
 */

/** How op 15's answer ended. */
export type VolumeExportEnd =
  { kind: 'described'; exported: VolumeExport } | { kind: 'raw'; exported: VolumeExport }

/** A streamed op 15 under way. */
export interface VolumeExportRequest {
  /** The answer read to its end (the archive written whole into `file`, not yet committed). */
  ended: Promise<VolumeExportEnd>
  /**
   * Resolves as soon as the answer is known to be the archive itself, with what its headers
   * said; never resolves for a described answer (then `ended` says so).
   */
  archiveBegan: Promise<VolumeExport>
  /** Where the archive's progress goes once a transfer shows it. */
  onProgress(report: (progress: JobProgress) => void): void
}

/** The two bytes every gzip stream starts with (RFC 1952, ID1 and ID2). */
function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
}

/** Media types that say the answer is the archive, not a description of it. */
const ARCHIVE_MEDIA_TYPE =
  /^application\/(gzip|x-gzip|x-tar|x-gtar|x-compressed-tar|octet-stream|zstd|x-xz|x-bzip2|zip)$/i
const JSON_MEDIA_TYPE = /[/+]json$/i

/**
 * Asks op 15 once; a raw archive goes into `file` as it arrives. `signal` cancels the request
 * (and so the write) at any point.
 */
export function requestVolumeExport(
  client: ServiceClient,
  nodeId: string,
  name: string,
  file: AtomicFile,
  signal: AbortSignal,
): VolumeExportRequest {
  let announce: (exported: VolumeExport) => void = () => undefined
  const archiveBegan = new Promise<VolumeExport>((resolve) => (announce = resolve))
  let report: (progress: JobProgress) => void = () => undefined
  const sink = volumeExportSink(file, name, nodeId, {
    announce: (exported) => announce(exported),
    progress: (progress) => report(progress),
  })
  const ended = client.streamAnswer(
    'exportVolume',
    sink,
    { params: { nodeId, name } },
    {
      signal,
      accept: 'application/json, application/gzip;q=0.9, */*;q=0.5',
    },
  )
  return {
    ended,
    archiveBegan,
    onProgress(next) {
      report = next
    },
  }
}

type Mode = 'undecided' | 'json' | 'raw'

/** Bytes written to the file at a time at most (a drip of single bytes is gathered). */
const WRITE_BYTES = 64 * 1024

function volumeExportSink(
  file: AtomicFile,
  name: string,
  nodeId: string,
  tell: { announce(exported: VolumeExport): void; progress(progress: JobProgress): void },
): AnswerSink<VolumeExportEnd> {
  let mode: Mode = 'undecided'
  let control: AnswerControl | null = null
  let headers: Headers = new Headers()
  /** The JSON answer (or the first bytes, until they say which answer this is). */
  let held: Buffer[] = []
  let heldBytes = 0
  let exported: VolumeExport | null = null
  let restarts = 0
  let announced = false
  let pending: Buffer[] = []
  let pendingBytes = 0

  const flush = async () => {
    if (pendingBytes === 0) return
    const bytes = Buffer.concat(pending, pendingBytes)
    pending = []
    pendingBytes = 0
    await file.write(bytes)
    tell.progress({
      bytesDone: file.size,
      bytesTotal: typeof exported?.sizeBytes === 'number' ? exported.sizeBytes : null,
      resumes: 0,
      restarts,
    })
  }

  const becomeRaw = async () => {
    mode = 'raw'
    control?.streamed()
    const declared = Number(headers.get('content-length'))
    const described: VolumeExport = {
      name,
      nodeId,
      format: 'tar.gz',
      ...(Number.isSafeInteger(declared) && declared >= 0 ? { sizeBytes: declared } : {}),
    }
    const filename = filenameFromContentDisposition(headers.get('content-disposition'))
    if (filename !== null) described['filename'] = filename
    if (exported === null) exported = described
    if (!announced) {
      announced = true
      tell.announce(exported)
    }
    // What arrived before the answer was known to be the archive is its first bytes.
    pending = held
    pendingBytes = heldBytes
    held = []
    heldBytes = 0
  }

  return {
    async begin(answer, attemptControl) {
      control = attemptControl
      headers = answer.headers
      held = []
      heldBytes = 0
      pending = []
      pendingBytes = 0
      if (file.size > 0) {
        // A retry after a break: the file starts again from nothing.
        await file.restart()
        restarts += 1
      }
      const mediaType = mainMediaType(headers.get('content-type'))
      mode = 'undecided'
      if (mediaType !== null && JSON_MEDIA_TYPE.test(mediaType)) mode = 'json'
      else if (mediaType !== null && ARCHIVE_MEDIA_TYPE.test(mediaType)) await becomeRaw()
    },
    async chunk(bytes) {
      // A copy: fetch may reuse the chunk's memory once it is handed on.
      const copy = Buffer.from(bytes)
      if (mode === 'raw') {
        pending.push(copy)
        pendingBytes += copy.length
        if (pendingBytes >= WRITE_BYTES) await flush()
        return
      }
      held.push(copy)
      heldBytes += copy.length
      if (mode !== 'undecided' || heldBytes < 2) return
      if (!isGzip(Buffer.concat(held, heldBytes).subarray(0, 2))) {
        mode = 'json'
        return
      }
      await becomeRaw()
      if (pendingBytes >= WRITE_BYTES) await flush()
    },
    async end() {
      if (mode === 'raw') {
        await flush()
        return { kind: 'raw', exported: exported as VolumeExport }
      }
      if (announced) {
        // A retry answered with a description where the first attempt sent the archive.
        throw badResponse('exportVolume', 'it sent the archive, then a description instead')
      }
      const text = Buffer.concat(held, heldBytes).toString('utf8')
      const value = parseJsonBody('exportVolume', 200, headers.get('content-type'), text)
      const answer = parseAnswer('exportVolume', operations.exportVolume.response, value)
      return { kind: 'described', exported: answer.data }
    },
  }
}

/** The error a raw archive's transfer ends with when the user cancelled it. */
export function cancelledExport(): ServiceError {
  return new ServiceError(APP_ERROR_CODES.CANCELLED, 'Cancelled: no file was written')
}

export interface RawArchiveJob {
  request: VolumeExportRequest
  file: AtomicFile
  /** The name the file takes, learnt from the answer; null keeps the one it was opened with. */
  name: string | null
  collision: Collision
  signal: AbortSignal
  /** Cancels op 15's request, which is still arriving when the transfer begins. */
  abort: AbortController
  reporter: JobReporter
}

/**
 * The rest of an archive that op 15 sends as its answer: the transfer shows its progress while
 * it arrives; once it is whole, the file is checked (against the size the headers declared) and
 * given its name with the SHA-256 the writer computed on the way. A cancel stops the request.
 */
export async function finishRawArchive(job: RawArchiveJob): Promise<CommittedFile> {
  const { request, file, signal, reporter } = job
  const stop = () => job.abort.abort(signal.reason)
  signal.addEventListener('abort', stop, { once: true })
  if (signal.aborted) stop()
  request.onProgress((progress) => reporter.progress(progress))
  try {
    const ended = await request.ended
    if (signal.aborted) throw cancelledExport()
    reporter.verifying()
    return await file.commit({
      collision: job.collision,
      ...(job.name === null ? {} : { name: job.name }),
      verify: (written) => verifyArchive(written, ended.exported),
    })
  } catch (error) {
    await file.abort()
    throw signal.aborted ? cancelledExport() : error
  } finally {
    signal.removeEventListener('abort', stop)
  }
}
