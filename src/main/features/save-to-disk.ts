import { mkdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from '../api'
import type { TransferStart } from '../cache/transfers'
import { fileSystemError, writeFileAtomic } from '../transfers'
import type { Collision, CommittedFile } from '../transfers'
import type { DeskContext } from './context'
import { bridgeErrorOf, writeActivity } from './context'

/*
 * A file the user saves (a certificate export, an SQL result): where it goes, and its write as
 * one transfer of the Transfers panel. Written atomically (see transfers/atomic-file.ts), so a
 * failure or a cancel leaves no file under the target's name, and the log says how it ended.
 */

/** Where a save goes, and what happens when the name is taken. */
export interface SaveTarget {
  folder: string
  name: string
  collision: Collision
  /** The path the save dialog chose, known before the transfer starts; null in web mode. */
  dialogPath: string | null
}

/**
 * Electron asks with the save dialog (which already asked about replacing a file, so replacing
 * is what the user agreed to); web mode saves into the downloads folder of Settings, numbering
 * the name on a collision. Null when the user cancelled the dialog.
 */
export async function chooseSaveTarget(
  context: Pick<DeskContext, 'desktop' | 'settings'>,
  dialog: {
    title: string
    defaultName: string
    filter: { name: string; extension: string } | null
  },
): Promise<SaveTarget | null> {
  if (context.desktop === null) {
    const folder = await webDownloadsFolder(context)
    return { folder, name: dialog.defaultName, collision: 'number', dialogPath: null }
  }
  const chosen = await context.desktop.chooseSavePath({
    title: dialog.title,
    defaultName: dialog.defaultName,
    ...(dialog.filter === null
      ? {}
      : { filters: [{ name: dialog.filter.name, extensions: [dialog.filter.extension] }] }),
  })
  if (chosen === null) return null
  return {
    folder: path.dirname(chosen),
    name: path.basename(chosen),
    collision: 'replace',
    dialogPath: chosen,
  }
}

/**
 * Web mode's folder for saved files: Settings' downloads folder. The default one (~/Downloads)
 * is made when missing: web mode runs on headless machines, where it often is, and the user
 * never chose it. A folder the user chose is never made again after it went away (a deleted
 * folder, an unplugged disk): that is told, naming the setting to change.
 */
export async function webDownloadsFolder(context: Pick<DeskContext, 'settings'>): Promise<string> {
  const folder = context.settings.get().downloadsDir
  const info = await stat(folder).catch(() => null)
  if (info?.isDirectory()) return folder
  if (info === null && isDefaultDownloadsFolder(context, folder)) {
    await makeDownloadsFolder(folder)
    return folder
  }
  throw new ServiceError(
    APP_ERROR_CODES.NOT_WRITABLE,
    `The downloads folder ${folder} ${info === null ? 'does not exist' : 'is not a folder'}: choose another one in Settings.`,
    {
      details: [
        {
          path: ['downloadsDir'],
          message: info === null ? 'No such folder' : 'This is a file, not a folder',
        },
      ],
    },
  )
}

/** Whether `folder` is the downloads folder Settings starts with. */
export function isDefaultDownloadsFolder(
  context: Pick<DeskContext, 'settings'>,
  folder: string,
): boolean {
  return path.resolve(folder) === path.resolve(context.settings.defaults.downloadsDir)
}

/** Makes the default downloads folder (and its parents); a failure names the parent. */
export async function makeDownloadsFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true }).catch((error: unknown) => {
    throw fileSystemError(error, path.dirname(folder))
  })
}

export interface SavedFile extends CommittedFile {
  transferId: string
}

/**
 * Writes what `content` gives to `target`, recorded as a transfer from start to end: completed
 * with the path, size and SHA-256, else failed or cancelled with the error (cut free of tokens).
 * `content` runs inside the transfer, so a failed download is recorded like a failed write.
 * Errors of the write are told as file-system errors of the target's folder; the rest are
 * thrown as they came.
 */
export async function saveToDisk(
  context: DeskContext,
  target: SaveTarget,
  transferStart: Omit<TransferStart, 'destination'>,
  content: () => Promise<Uint8Array | AsyncIterable<Uint8Array>>,
  options: { fallbackName?: string } = {},
): Promise<SavedFile> {
  const transfer = context.transfers.start({ ...transferStart, destination: target.dialogPath })
  try {
    const bytes = await content()
    const written = await writeFileAtomic(target.folder, target.name, bytes, {
      collision: target.collision,
      onProgress: (done) => context.transfers.progress(transfer.id, done),
      ...(options.fallbackName === undefined ? {} : { fallbackName: options.fallbackName }),
    }).catch((error: unknown) => {
      throw fileSystemError(error, target.folder)
    })
    context.transfers.finish(transfer.id, {
      state: 'completed',
      destination: written.path,
      bytesDone: written.size,
      sha256: written.sha256,
    })
    return { ...written, transferId: transfer.id }
  } catch (error) {
    const bridgeError = bridgeErrorOf(context, error)
    context.transfers.finish(transfer.id, {
      state: bridgeError.code === APP_ERROR_CODES.CANCELLED ? 'cancelled' : 'failed',
      errorCode: bridgeError.code,
      errorMessage: bridgeError.message,
    })
    throw error
  }
}

/**
 * Who a file made of every profile's data (the Expiring list) belongs to in the transfers and
 * activity logs: no one profile, said as such.
 */
export const EVERY_PROFILE = { id: '', name: 'All profiles' } as const

/**
 * An export in the activity log (Activity: "every change, export and SQL statement"): what was
 * written where, or why it failed. For exports that are not a service operation's own line
 * (recordActivity in context.ts is for those) or that span profiles.
 */
export function recordExportActivity(
  context: DeskContext,
  owner: { id: string; name: string },
  operation: string,
  targetId: string | null,
  outcome: { error: unknown } | { message: string },
): void {
  const bridgeError = 'error' in outcome ? bridgeErrorOf(context, outcome.error) : null
  const message = 'error' in outcome ? (bridgeError?.message ?? null) : outcome.message
  try {
    writeActivity(context, owner, operation, targetId, bridgeError, message)
  } catch (error) {
    // The cache may be closing with the desk: the export itself stands.
    console.warn('An export was not written to the activity log:', error)
  }
}
