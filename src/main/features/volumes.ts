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
import { volumeArchiveLabel, volumeArchiveOf } from '../../shared/volume-archive-label'
import { knownNameOf } from './known-objects'
import { objectsOfAnswer } from './known-objects/answer-objects'
import { finishRawArchive, requestVolumeExport } from './volume-export-answer'
import type { VolumeExportEnd, VolumeExportRequest } from './volume-export-answer'
import { isDefaultDownloadsFolder, recordExportActivity, webDownloadsFolder } from './save-to-disk'

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
      recordVolumeExport(context, transfer)
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
        label: volumeLabel(context, profileId, nodeId, name),
        source: {
          operation: 'exportVolume',
          nodeId,
          name,
          format: exported?.format ?? null,
          // Whether the file is checked against the service's digest, or only hashed here
          // (a real deployment's raw archive announces none): the screen says which.
          sha256Announced: typeof exported?.sha256 === 'string' && exported.sha256 !== '',
        },
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
      if (ended !== undefined) {
        context.events.emit('transfers.finished', ended)
        recordVolumeExport(context, ended)
      }
    }
    // The file first (Electron: the save dialog; web mode: the downloads folder), so a folder
    // that cannot take it fails at once, on the form, and a raw archive has somewhere to go the
    // moment it begins to arrive.
    let target: Awaited<ReturnType<typeof chooseTarget>>
    let file: AtomicFile
    try {
      target = await chooseTarget(context, safeFileName(`${name}.tar.gz`, 'volume.tar.gz'))
      file = await AtomicFile.create(target.folder, target.name, {
        fallbackName: 'volume.tar.gz',
      })
    } catch (error) {
      // A folder that cannot take the file is a failed export too; a dialog closed is not.
      if (bridgeErrorOf(context, error).code !== APP_ERROR_CODES.CANCELLED) {
        logFailure(logStart(null), error)
      }
      throw error
    }
    const requestAbort = new AbortController()
    let started: {
      client: ServiceClient
      request: VolumeExportRequest
      first: { raw: VolumeExport } | { ended: VolumeExportEnd }
    }
    try {
      started = await withProfileClient(context, profileId, async (client) => {
        const request = requestVolumeExport(client, nodeId, name, file, requestAbort.signal)
        // Errors after the archive began belong to the transfer (below), not to this call.
        request.ended.catch(() => undefined)
        const first = await Promise.race([
          request.ended.then((ended) => ({ ended })),
          request.archiveBegan.then((raw) => ({ raw })),
        ])
        return { client, request, first }
      })
    } catch (error) {
      // Op 15 failed (timeout, 5xx, reset, a malformed answer): as certificate exports do.
      await file.abort()
      logFailure(logStart(null), error)
      throw error
    }
    const { client: profileClient, request, first } = started
    const exported = 'raw' in first ? first.raw : first.ended.exported
    rememberVolume(context, profileId, nodeId, name, exported)
    const transfer = logStart(exported)
    const timing = context.downloadTiming

    if ('raw' in first) {
      void jobs.run(transfer, (signal, reporter) =>
        finishRawArchive({
          request,
          file,
          // Web mode names the file as the service did; a name the user chose stays.
          name: target.chosen ? null : defaultArchiveName(exported, name),
          collision: target.collision,
          signal,
          abort: requestAbort,
          reporter,
        }),
      )
      return transfer
    }

    // A description: the archive is fetched from its link, or was sent inline. The name it
    // gives is the file's, unless the user chose one.
    let described: AtomicFile = file
    if (!target.chosen) {
      await file.abort()
      try {
        described = await AtomicFile.create(target.folder, defaultArchiveName(exported, name), {
          fallbackName: 'volume.tar.gz',
        })
      } catch (error) {
        logFailure(transfer, error)
        throw error
      }
    }
    void jobs.run(transfer, (signal, reporter) =>
      writeVolumeArchive({
        exported,
        client: profileClient,
        file: described,
        collision: target.collision,
        signal,
        reporter,
        renewUrl: () => renewDownloadUrl(profileClient, nodeId, name),
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
        relabelVolumeArchives(context, rows).map(async (named) => {
          return named.state === 'completed' && named.destination !== null
            ? { ...named, fileMissing: !(await isFile(named.destination)) }
            : named
        }),
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

/** A volume archive's label (shared/volume-archive-label.ts), its node named when known. */
function volumeLabel(
  context: DeskContext,
  profileId: string,
  nodeId: string,
  name: string,
): string {
  return volumeArchiveLabel({ name, nodeId, nodeName: knownNameOf(context, profileId, nodeId) })
}

/**
 * Logged volume archives named as today, whenever they were logged: earlier runs stored
 * "node / volume", and a node's name may have become known since. The nodes' names are read in
 * one query for the whole list.
 */
function relabelVolumeArchives<T extends Transfer>(context: DeskContext, transfers: T[]): T[] {
  const archives = transfers.map((transfer) => ({ transfer, volume: volumeArchiveOf(transfer) }))
  const names = context.knownObjects.namesOf(
    archives.flatMap(({ transfer, volume }) =>
      volume === null ? [] : [{ profileId: transfer.profileId, id: volume.nodeId }],
    ),
  )
  return archives.map(({ transfer, volume }) =>
    volume === null
      ? transfer
      : {
          ...transfer,
          label: volumeArchiveLabel({
            ...volume,
            nodeName: names.of(transfer.profileId, volume.nodeId),
          }),
        },
  )
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

/**
 * A volume export's end in the activity log (every export is there, as certificate exports
 * are): where it was saved, with its size and SHA-256, or why it failed.
 */
function recordVolumeExport(context: DeskContext, transfer: Transfer): void {
  const target = typeof transfer.source.name === 'string' ? transfer.source.name : null
  const owner = { id: transfer.profileId, name: transfer.profileName }
  if (transfer.state === 'completed') {
    recordExportActivity(context, owner, 'exportVolume', target, {
      message:
        `${transfer.label} saved to ${transfer.destination ?? '?'} ` +
        `(${transfer.bytesDone} bytes, SHA-256 ${transfer.sha256 ?? '?'})`,
    })
    return
  }
  recordExportActivity(context, owner, 'exportVolume', target, {
    error: new ServiceError(
      transfer.errorCode ?? APP_ERROR_CODES.CANCELLED,
      `${transfer.label}: ${transfer.errorMessage ?? transfer.state}`,
    ),
  })
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
): Promise<{ folder: string; name: string; collision: Collision; chosen: boolean }> {
  if (context.desktop === null) {
    const folder = context.settings.get().downloadsDir
    // The default folder is made when missing. A chosen one that went away is told by the
    // writer, inside the transfer, so the failed attempt is in the transfers log too.
    if (isDefaultDownloadsFolder(context, folder)) await webDownloadsFolder(context)
    return { folder, name: defaultName, collision: 'number', chosen: false }
  }
  const chosen = await context.desktop.chooseSavePath({
    title: 'Save the volume archive',
    defaultName,
    filters: [{ name: 'Volume archives', extensions: ['gz', 'tgz', 'tar'] }],
  })
  if (chosen === null) {
    throw new ServiceError(APP_ERROR_CODES.CANCELLED, 'No file was chosen: nothing was exported')
  }
  return {
    folder: path.dirname(chosen),
    name: path.basename(chosen),
    collision: 'replace',
    chosen: true,
  }
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
