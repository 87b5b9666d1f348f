import { create } from 'zustand'
import type { QueryFile } from '../../../../../shared/bridge/channels/sql-library'

/*
 * Which saved-query file each editor tab was opened from or saved as, so Save writes back to
 * it (and notices a change made on disk since). Kept for this session only: after a restart a
 * tab's Save asks for a name again, and reopening the file from the Library links it anew.
 */

export interface LinkedFile {
  path: string
  modifiedAt: number
}

interface LibraryState {
  fileOfTab: Record<string, LinkedFile>
  link(tabId: string, file: Pick<QueryFile, 'path' | 'modifiedAt'>): void
  /** After a rename or delete: the tabs showing `path` follow it (or are unlinked with null). */
  moved(path: string, file: Pick<QueryFile, 'path' | 'modifiedAt'> | null): void
}

export const useQueryLibraryStore = create<LibraryState>((set) => ({
  fileOfTab: {},
  link: (tabId, file) =>
    set((state) => ({
      fileOfTab: { ...state.fileOfTab, [tabId]: { path: file.path, modifiedAt: file.modifiedAt } },
    })),
  moved: (path, file) =>
    set((state) => {
      const next: Record<string, LinkedFile> = {}
      for (const [tabId, linked] of Object.entries(state.fileOfTab)) {
        if (linked.path !== path) next[tabId] = linked
        else if (file !== null) next[tabId] = { path: file.path, modifiedAt: file.modifiedAt }
      }
      return { fileOfTab: next }
    }),
}))

/** A tab's title for a query file: its header's title, else its name without `.sql`. */
export function tabTitleOf(file: Pick<QueryFile, 'title' | 'name'>): string {
  return (file.title ?? file.name.replace(/\.sql$/i, '')).slice(0, 200)
}

/** A file name suggested for a tab's text: its title, made safe for every file system. */
export function suggestedFileName(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return `${slug || 'query'}.sql`
}
