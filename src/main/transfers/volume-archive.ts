import type { VolumeExport } from '../../shared/api'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from '../api'
import type { ServiceClient } from '../api'
import type { AtomicFile, Collision, CommittedFile } from './atomic-file'
import { downloadInWorker } from './worker-download'
import type { JobReporter } from './jobs'

/*
 * Writes what op 15 answered to disk: the archive behind `downloadUrl` (streamed, resumed), or
 * inline base64 `content` when the service sends the bytes themselves. Either way the file is
 * checked against the announced `sizeBytes` and `sha256` before it takes its name; a mismatch
 * deletes it and says so.
 */

export interface VolumeArchiveJob {
  exported: VolumeExport
  client: ServiceClient
  file: AtomicFile
  collision: Collision
  signal: AbortSignal
  reporter: JobReporter
  /** Asks op 15 again for a fresh link (signed links expire). */
  renewUrl(): Promise<string>
  /** Timeouts and backoff of the download; the defaults suit real networks (tests shorten them). */
  timing?: DownloadTiming
}

export interface DownloadTiming {
  /** Until the download's response headers arrive. Default 60 s. */
  headersTimeoutMs?: number
  /** No byte of the body for this long: the attempt is given up and resumed. Default 60 s. */
  stallTimeoutMs?: number
  /** First pause before a resume. Default 500 ms. */
  retryDelayMs?: number
}

const DEFAULT_HEADERS_TIMEOUT_MS = 60_000

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/

export async function writeVolumeArchive(job: VolumeArchiveJob): Promise<CommittedFile> {
  const { exported, file, reporter } = job
  const expectedSize = typeof exported.sizeBytes === 'number' ? exported.sizeBytes : null
  const timing = job.timing ?? {}
  const headersTimeoutMs = timing.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS
  try {
    if (exported.downloadUrl !== undefined && exported.downloadUrl !== '') {
      // On the download worker, from socket to disk: main's loop never sees the bytes. The
      // token goes to the profile's own origin only; fetchRaw enforces it on every hop there.
      const written = await downloadInWorker({
        url: exported.downloadUrl,
        client: job.client,
        file,
        signal: job.signal,
        expectedSize,
        headersTimeoutMs,
        ...(timing.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: timing.stallTimeoutMs }),
        ...(timing.retryDelayMs === undefined ? {} : { retryDelayMs: timing.retryDelayMs }),
        onProgress: (progress) => reporter.progress(progress),
        renewUrl: job.renewUrl,
      })
      file.adopt({ size: written.bytesDone, sha256: written.sha256 })
    } else if (typeof exported.content === 'string') {
      await writeInline(exported.content, file, job.signal, reporter, expectedSize)
    } else {
      throw new ServiceError(
        APP_ERROR_CODES.BAD_RESPONSE,
        "The service's answer to exportVolume (operation 15) has neither a downloadUrl nor content",
      )
    }
    if (job.signal.aborted) throw cancelled()
    reporter.verifying()
    return await file.commit({
      collision: job.collision,
      verify: (written) => verifyArchive(written, exported),
    })
  } catch (error) {
    await file.abort()
    throw error
  }
}

async function writeInline(
  content: string,
  file: AtomicFile,
  signal: AbortSignal,
  reporter: JobReporter,
  expectedSize: number | null,
) {
  if (!BASE64.test(content)) {
    throw new ServiceError(
      APP_ERROR_CODES.BAD_RESPONSE,
      "The service's inline volume content is not valid base64",
    )
  }
  const bytes = Buffer.from(content, 'base64')
  const total = expectedSize ?? bytes.length
  // Written in slices so that progress and cancel work as they do for a download.
  const slice = 1024 * 1024
  for (let offset = 0; offset < bytes.length; offset += slice) {
    if (signal.aborted) throw cancelled()
    await file.write(bytes.subarray(offset, offset + slice))
    reporter.progress({ bytesDone: file.size, bytesTotal: total, resumes: 0, restarts: 0 })
  }
}

/** Refuses a file whose size or SHA-256 is not what the service announced. */
export function verifyArchive(
  written: { size: number; sha256: string },
  exported: Pick<VolumeExport, 'sizeBytes' | 'sha256'>,
): void {
  if (typeof exported.sizeBytes === 'number' && written.size !== exported.sizeBytes) {
    throw new ServiceError(
      APP_ERROR_CODES.INTEGRITY_ERROR,
      `The archive has ${written.size} bytes, but the service announced ${exported.sizeBytes}: the file was deleted`,
      { details: { expectedSize: exported.sizeBytes, actualSize: written.size } },
    )
  }
  const expected = exported.sha256?.trim().toLowerCase()
  if (expected !== undefined && expected !== '' && expected !== written.sha256) {
    throw new ServiceError(
      APP_ERROR_CODES.INTEGRITY_ERROR,
      `The archive's SHA-256 is ${written.sha256}, but the service announced ${expected}: the file was deleted`,
      { details: { expectedSha256: expected, actualSha256: written.sha256 } },
    )
  }
}

function cancelled() {
  return new ServiceError(APP_ERROR_CODES.CANCELLED, 'Cancelled: no file was written')
}
