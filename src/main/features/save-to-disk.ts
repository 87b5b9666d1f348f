import path from 'node:path'
import { APP_ERROR_CODES } from '../../shared/bridge'
import type { TransferStart } from '../cache/transfers'
import { fileSystemError, writeFileAtomic } from '../transfers'
import type { Collision, CommittedFile } from '../transfers'
import type { DeskContext } from './context'
import { bridgeErrorOf } from './context'

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
    const folder = context.settings.get().downloadsDir
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
