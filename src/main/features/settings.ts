import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import path from 'node:path'
import { ServiceError } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { isDefaultDownloadsFolder, makeDownloadsFolder } from './save-to-disk'

/** The Settings screen: read and patch; a downloads folder must exist and be writable. */
export function settingsHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, 'settings.get' | 'settings.update'> {
  return {
    async 'settings.get'() {
      return context.settings.get()
    },
    async 'settings.update'(patch) {
      const downloadsDir = patch.downloadsDir
      if (downloadsDir !== undefined) {
        // The default folder may be chosen again though it is missing: it is made (on use too).
        if (path.isAbsolute(downloadsDir) && isDefaultDownloadsFolder(context, downloadsDir)) {
          await stat(downloadsDir).catch(() => makeDownloadsFolder(downloadsDir))
        }
        await checkFolder(downloadsDir)
      }
      // The saved-query library: '' goes back to <data folder>/queries.
      if (patch.sqlLibraryDir !== undefined && patch.sqlLibraryDir !== '') {
        await checkFolder(patch.sqlLibraryDir, 'sqlLibraryDir')
      }
      return context.settings.update(patch)
    },
  }
}

async function checkFolder(folder: string, field = 'downloadsDir'): Promise<void> {
  const refuse = (message: string) =>
    new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
      details: [{ path: [field], message }],
    })
  if (!path.isAbsolute(folder)) throw refuse('Enter an absolute path')
  const info = await stat(folder).catch(() => null)
  if (info === null) throw refuse('No such folder')
  if (!info.isDirectory()) throw refuse('This is a file, not a folder')
  await access(folder, constants.W_OK).catch(() => {
    throw refuse('Infradesk may not write to this folder')
  })
}
