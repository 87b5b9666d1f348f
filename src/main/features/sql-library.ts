import path from 'node:path'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { createSqlLibrary } from '../sql-library/library'
import type { DeskContext } from './context'

/*
 * The SQL console's saved queries (src/main/sql-library): `<data folder>/queries` unless the
 * setting `sqlLibraryDir` names another folder. Changes on disk, ours or anyone's, are pushed
 * as `sqlLibrary.changed` so the Library panel lists again without a restart.
 */

export const DEFAULT_LIBRARY_FOLDER_NAME = 'queries'

export function sqlLibraryFolder(context: Pick<DeskContext, 'dataDir' | 'settings'>): string {
  const chosen = context.settings.get().sqlLibraryDir
  return chosen === '' ? path.join(context.dataDir, DEFAULT_LIBRARY_FOLDER_NAME) : chosen
}

type LibraryChannel =
  | 'sqlLibrary.list'
  | 'sqlLibrary.read'
  | 'sqlLibrary.save'
  | 'sqlLibrary.saveAs'
  | 'sqlLibrary.rename'
  | 'sqlLibrary.delete'
  | 'sqlLibrary.search'

export function sqlLibraryHandlers(
  context: Pick<DeskContext, 'dataDir' | 'settings' | 'events' | 'onClose'>,
  options: { debounceMs?: number } = {},
): Pick<BridgeHandlers, LibraryChannel> {
  const library = createSqlLibrary({
    folder: () => sqlLibraryFolder(context),
    onChange: (folder) => context.events.emit('sqlLibrary.changed', { folder }),
    ...options,
  })
  // Another folder chosen: watch that one, and let the panel list it.
  let folder = sqlLibraryFolder(context)
  const stopFollowingSettings = context.settings.onChange(() => {
    if (sqlLibraryFolder(context) === folder) return
    folder = sqlLibraryFolder(context)
    library.rewatch()
    context.events.emit('sqlLibrary.changed', { folder })
  })
  context.onClose(() => {
    stopFollowingSettings()
    library.close()
  })
  return {
    'sqlLibrary.list': () => library.list(),
    'sqlLibrary.read': ({ path: file }) => library.read(file),
    'sqlLibrary.save': ({ path: file, text, expectedModifiedAt }) =>
      library.save(file, text, expectedModifiedAt),
    'sqlLibrary.saveAs': ({ path: file, text, overwrite }) => library.saveAs(file, text, overwrite),
    'sqlLibrary.rename': ({ from, to }) => library.rename(from, to),
    'sqlLibrary.delete': async ({ path: file }) => {
      await library.remove(file)
      return null
    },
    'sqlLibrary.search': ({ query, limit }) => library.search(query, limit),
  }
}
