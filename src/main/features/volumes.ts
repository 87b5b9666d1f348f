import { stat } from 'node:fs/promises'
import path from 'node:path'
import type { VolumeExport } from '../../shared/api'
import type { Transfer } from '../../shared/bridge'
import { APP_ERROR_CODES } from '../../shared/bridge'
import type { volumeChannels } from '../../shared/bridge/channels/volumes'
import { ServiceError } from '../api'
import type { ServiceClient } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { AtomicFile, safeFileName } from '../transfers'
import type { Collision } from '../transfers'
import { createTransferJobs } from '../transfers/jobs'
import { writeVolumeArchive } from '../transfers/volume-archive'
import type { DeskContext } from './context'
import { bridgeErrorOf, requireProfile, withProfileClient } from './context'
import { nameBesideId } from './known-objects'
import { objectsOfAnswer } from './known-objects/answer-objects'
import { openVolumeExport, writeRawArchive, type OpenedExport } from './volume-export-answer'
import { isDefaultDownloadsFolder, webDownloadsFolder } from './save-to-disk'

/*
 * Volume export (op 15) and the Transfers panel. `volumes.export` asks the service, opens the
 * file (so a missing or read-only folder fails at once, on the form), logs the transfer and
 * streams the archive in the background; progress and the end arrive as events. The transfers
 * log (SQLite) keeps every export of every run, certificate exports included. Op 15 may answer
 * with a description (a link, inline content) or with the archive itself
 * (volume-export-answer.ts): the one request decides which.
 */

/** A finished transfer that took at least this long raises a system notification (Electron). */
const NOTIFY_AFTER_MS = 10_000

export function volumeHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, Exclude<keyof typeof volumeChannels, 'transfers.downloadTicket'>> {
  const jobs = createTransferJobs({
    transfers: context.transfers,
    emitProgress: (progress) => context.events.emit('transfers.progress', progress),
    emitFinished: (transfer) => {
      context.events.emit('transfers.finished', transfer)
      notifyIfLong(context, transfer)
    },
    toBridgeError: (error) => bridgeErrorOf(context, error),
  })
  context.onClose(() => jobs.closeAll())

  async function exportVolume({
    profileId,
    nodeId,
    name,
  }: {
    profileId: string
    nodeId: string
    name: string
  }): Promise<Transfer> {
    const profile = requireProfile(context, profileId)
    const logStart = (exported: VolumeExport | null) =>
      context.transfers.start({
        profileId,
        profileName: profile.name,
        kind: 'volume',
        label: `${nameBesideId(context, profileId, nodeId)} / ${name}`,
        source: { operation: 'exportVolume', nodeId, name, format: exported?.format ?? null },
        bytesTotal: typeof exported?.sizeBytes === 'number' ? exported.sizeBytes : null,
        destination: null,
      })
    /** An export that failed before its download began is logged as failed too: the panel shows it. */
    const logFailure = (transfer: Transfer, error: unknown) => {
      const bridgeError = bridgeErrorOf(context, error)
      const ended = context.transfers.finish(transfer.id, {
        state: bridgeError.code === APP_ERROR_CODES.CANCELLED ? 'cancelled' : 'failed',
        errorCode: bridgeError.code,
        errorMessage: bridgeError.message,
      })
      if (ended !== undefined) context.events.emit('transfers.finished', ended)
    }
    let answered: { client: ServiceClient; opened: OpenedExport }
    try {
      answered = await withProfileClient(context, profileId, async (client) => ({
        client,
        opened: await openVolumeExport(client, nodeId, name),
      }))
    } catch (error) {
      // Op 15 failed (timeout, 5xx, reset, a malformed answer): as certificate exports do.
      logFailure(logStart(null), error)
      throw error
    }
    const { client, opened } = answered
    const exported = opened.exported
    rememberVolume(context, profileId, nodeId, name, exported)
    let target: Awaited<ReturnType<typeof chooseTarget>>
    let transfer: Transfer | null = null
    let file: AtomicFile
    try {
      target = await chooseTarget(context, defaultArchiveName(exported, name))
      transfer = logStart(exported)
      file = await AtomicFile.create(target.folder, target.name, {
        fallbackName: 'volume.tar.gz',
      })
    } catch (error) {
      // A folder that cannot take the file is a failed export too.
      if (transfer !== null) logFailure(transfer, error)
      throw error
    }
    const timing = context.downloadTiming
    void jobs.run(transfer, (signal, reporter) =>
      opened.kind === 'raw'
        ? writeRawArchive({ opened, file, collision: target.collision, signal, reporter })
        : writeVolumeArchive({
            exported,
            client,
            file,
            collision: target.collision,
            signal,
            reporter,
            renewUrl: () => renewDownloadUrl(client, nodeId, name),
            ...(timing === undefined ? {} : { timing }),
          }),
    )
    return transfer
  }

  return {
    'volumes.export': exportVolume,

    async 'transfers.retry'({ transferId }) {
      const transfer = context.transfers.get(transferId)
      if (transfer === undefined) throw new ServiceError('NOT_FOUND', 'No such transfer')
      const { nodeId, name } = transfer.source
      if (
        transfer.kind !== 'volume' ||
        typeof nodeId !== 'string' ||
        typeof name !== 'string' ||
        !RETRYABLE_STATES.has(transfer.state)
      ) {
        throw new ServiceError(
          'VALIDATION_ERROR',
          'Only a failed, cancelled or interrupted volume download can be retried',
        )
      }
      return exportVolume({ profileId: transfer.profileId, nodeId, name })
    },

    async 'transfers.cancel'({ transferId }) {
      return { cancelled: jobs.cancel(transferId) }
    },

    async 'transfers.active'() {
      return jobs.active()
    },

    async 'transfers.list'({ profileId, limit }) {
      const rows = context.transfers.list({
        ...(profileId === undefined ? {} : { profileId }),
        limit,
      })
      return Promise.all(
        rows.map(async (row) =>
          row.state === 'completed' && row.destination !== null
            ? { ...row, fileMissing: !(await isFile(row.destination)) }
            : row,
        ),
      )
    },

    async 'transfers.reveal'({ transferId, target }) {
      const transfer = context.transfers.get(transferId)
      if (transfer === undefined) throw new ServiceError('NOT_FOUND', 'No such transfer')
      if (transfer.destination === null) {
        throw new ServiceError('NOT_FOUND', 'This transfer wrote no file')
      }
      if (context.desktop === null) return { shown: false }
      const exists = await stat(transfer.destination).then(
        () => true,
        () => false,
      )
      if (target === 'file') {
        if (!exists) {
          throw new ServiceError(
            'NOT_FOUND',
            `${transfer.destination} is no longer there: it was moved or deleted`,
          )
        }
        context.desktop.showItemInFolder(transfer.destination)
      } else {
        await context.desktop.openPath(path.dirname(transfer.destination))
      }
      return { shown: true }
    },
  }
}

/**
 * The volume (and its node) among the profile's known objects, as every answer read with `call`
 * is remembered (known-objects/remember-answers.ts): op 15 is read with callBytes, which that
 * wrapper does not see. Remembering never fails the export.
 */
function rememberVolume(
  context: DeskContext,
  profileId: string,
  nodeId: string,
  name: string,
  exported: VolumeExport,
): void {
  try {
    const objects = objectsOfAnswer(
      'exportVolume',
      { params: { nodeId, name }, query: {}, answer: { data: exported } },
      Date.now(),
    )
    context.knownObjects.record(profileId, objects)
  } catch (error) {
    console.warn('Objects of an exportVolume answer were not remembered:', error)
  }
}

/** Ends a volume download may be retried from. */
const RETRYABLE_STATES: ReadonlySet<Transfer['state']> = new Set([
  'failed',
  'cancelled',
  'interrupted',
])

function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (info) => info.isFile(),
    () => false,
  )
}

/** Archive extensions the name may end in; anything else the service says is not one. */
const ARCHIVE_FORMAT = /^(tar\.gz|tgz|tar|tar\.zst|tar\.xz|tar\.bz2|zip)$/i
/** Archive suffixes a service's file name may already carry, taken off before ours goes on. */
const ARCHIVE_SUFFIX = /\.(tar\.gz|tgz|tar|tar\.zst|tar\.xz|tar\.bz2|zip)$/i

/**
 * The archive's default name: the service's file name (or the volume's), its extension
 * always the archive's format (a service's `Report.pdf      .desktop` must not choose what
 * the file opens as, in web mode least of all, where no dialog shows it), runs of whitespace
 * made one space; sanitised again when the file is opened.
 */
export function defaultArchiveName(exported: VolumeExport, volumeName: string): string {
  const format =
    typeof exported.format === 'string' && ARCHIVE_FORMAT.test(exported.format)
      ? exported.format.toLowerCase()
      : 'tar.gz'
  const named = exported['filename']
  const base = typeof named === 'string' && named.trim() !== '' ? named : volumeName
  const last = base.split(/[/\\]/).pop() ?? ''
  const stem = ARCHIVE_SUFFIX.test(last)
    ? last.replace(ARCHIVE_SUFFIX, '')
    : last.replace(/\.[^.]*$/, '')
  const collapsed = stem.replace(/\s+/g, ' ').trim()
  return safeFileName(`${collapsed === '' ? volumeName : collapsed}.${format}`, `volume.${format}`)
}

/**
 * Electron: the save dialog (the user agreed to replace a file of that name). Web mode: the
 * downloads folder of the settings, a taken name numbered, never overwritten.
 */
async function chooseTarget(
  context: DeskContext,
  defaultName: string,
): Promise<{ folder: string; name: string; collision: Collision }> {
  if (context.desktop === null) {
    const folder = context.settings.get().downloadsDir
    // The default folder is made when missing. A chosen one that went away is told by the
    // writer, inside the transfer, so the failed attempt is in the transfers log too.
    if (isDefaultDownloadsFolder(context, folder)) await webDownloadsFolder(context)
    return { folder, name: defaultName, collision: 'number' }
  }
  const chosen = await context.desktop.chooseSavePath({
    title: 'Save the volume archive',
    defaultName,
    filters: [{ name: 'Volume archives', extensions: ['gz', 'tgz', 'tar'] }],
  })
  if (chosen === null) {
    throw new ServiceError(APP_ERROR_CODES.CANCELLED, 'No file was chosen: nothing was exported')
  }
  return { folder: path.dirname(chosen), name: path.basename(chosen), collision: 'replace' }
}

async function renewDownloadUrl(
  client: ServiceClient,
  nodeId: string,
  name: string,
): Promise<string> {
  const answer = await client.call('exportVolume', { params: { nodeId, name } })
  const url = answer.data.downloadUrl
  if (url === undefined || url === '') {
    throw new ServiceError(APP_ERROR_CODES.BAD_RESPONSE, 'The service sent no new download link')
  }
  return url
}

function notifyIfLong(context: DeskContext, transfer: Transfer) {
  if (context.desktop === null || transfer.finishedAt === null) return
  if (transfer.finishedAt - transfer.startedAt < NOTIFY_AFTER_MS) return
  if (transfer.state === 'completed') {
    context.desktop.notify(
      'Export finished',
      `${transfer.label} was saved to ${transfer.destination}`,
    )
  } else if (transfer.state === 'failed') {
    context.desktop.notify(
      'Export failed',
      `${transfer.label}: ${transfer.errorMessage ?? 'failed'}`,
    )
  }
}
