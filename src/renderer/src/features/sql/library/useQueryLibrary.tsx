import { useEffect, useState, type ReactElement } from 'react'
import type { BridgeError } from '../../../../../shared/bridge'
import type { QueryFile } from '../../../../../shared/bridge/channels/sql-library'
import type { SqlTab } from '../../../../../shared/bridge/channels/sql'
import { asBridgeError, bridge } from '../../../bridge'
import { Button } from '../../../ui/Button'
import { ConfirmDialog } from '../../../ui/ConfirmDialog'
import { Dialog } from '../../../ui/Dialog'
import { ErrorBanner } from '../../../ui/ErrorBanner'
import { TextField } from '../../../ui/TextField'
import { useSqlStore } from '../store'
import { LibraryPanel } from './LibraryPanel'
import { suggestedFileName, tabTitleOf, useQueryLibraryStore } from './library-store'

/*
 * The saved-query library as the console uses it: Save / Save as… / Library on the toolbar
 * (Ctrl+S saves), the Library panel beside the editor, and the dialogs for a file's name,
 * rename and delete. A tab opened from a file (or saved as one) saves back to it; a file
 * changed on disk since it was opened is not overwritten (main answers CONFLICT).
 */

type NameAction = { kind: 'saveAs' } | { kind: 'rename'; file: QueryFile }

export interface QueryLibraryUi {
  toolbar: ReactElement
  /** The Library panel, when shown. */
  panel: ReactElement | null
  dialogs: ReactElement
}

export function useQueryLibrary(
  tab: SqlTab,
  defaults: { maxRows: number; databaseId: string },
): QueryLibraryUi {
  const [shown, setShown] = useState(false)
  const [naming, setNaming] = useState<NameAction | null>(null)
  const [name, setName] = useState('')
  const [conflict, setConflict] = useState(false)
  const [deleting, setDeleting] = useState<QueryFile | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeError | null>(null)
  const linked = useQueryLibraryStore((state) => state.fileOfTab[tab.id] ?? null)

  const fail = (caught: unknown) => setError(asBridgeError(caught))

  const adopt = (file: QueryFile) => {
    useQueryLibraryStore.getState().link(tab.id, file)
    useSqlStore.getState().update(tab.id, { title: tabTitleOf(file) })
  }

  const openFile = async (path: string) => {
    // A file already open in a tab of this session: that tab, not a second copy.
    const openIn = Object.entries(useQueryLibraryStore.getState().fileOfTab).find(
      ([tabId, file]) =>
        file.path === path && useSqlStore.getState().tabs.some((open) => open.id === tabId),
    )
    if (openIn !== undefined) {
      useSqlStore.getState().select(openIn[0])
      return
    }
    try {
      const { file, text } = await bridge.call('sqlLibrary.read', { path })
      const opened = await useSqlStore
        .getState()
        .add({ ...defaults, text, title: tabTitleOf(file) })
      useQueryLibraryStore.getState().link(opened.id, file)
    } catch (caught) {
      fail(caught)
    }
  }

  const startSaveAs = () => {
    setName(linked?.path ?? suggestedFileName(tab.title))
    setConflict(false)
    setError(null)
    setNaming({ kind: 'saveAs' })
  }

  const save = async () => {
    if (linked === null) {
      startSaveAs()
      return
    }
    try {
      const file = await bridge.call('sqlLibrary.save', {
        path: linked.path,
        text: tab.text,
        expectedModifiedAt: linked.modifiedAt,
      })
      adopt(file)
      setError(null)
    } catch (caught) {
      fail(caught)
    }
  }

  const submitName = async (overwrite: boolean) => {
    if (naming === null) return
    const target = /\.sql$/i.test(name.trim()) ? name.trim() : `${name.trim()}.sql`
    setBusy(true)
    try {
      if (naming.kind === 'saveAs') {
        adopt(await bridge.call('sqlLibrary.saveAs', { path: target, text: tab.text, overwrite }))
      } else {
        const file = await bridge.call('sqlLibrary.rename', { from: naming.file.path, to: target })
        useQueryLibraryStore.getState().moved(naming.file.path, file)
      }
      setNaming(null)
      setError(null)
    } catch (caught) {
      const bridgeError = asBridgeError(caught)
      setConflict(bridgeError.code === 'CONFLICT' && naming.kind === 'saveAs')
      setError(bridgeError)
    } finally {
      setBusy(false)
    }
  }

  const remove = async () => {
    if (deleting === null) return
    setBusy(true)
    try {
      await bridge.call('sqlLibrary.delete', { path: deleting.path })
      useQueryLibraryStore.getState().moved(deleting.path, null)
      setDeleting(null)
      setError(null)
    } catch (caught) {
      fail(caught)
    } finally {
      setBusy(false)
    }
  }

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 's' || !(event.ctrlKey || event.metaKey) || event.altKey)
        return
      event.preventDefault()
      if (event.shiftKey) startSaveAs()
      else void save()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  })

  const toolbar = (
    <span className="sql-library-toolbar">
      <Button
        onClick={() => void save()}
        aria-keyshortcuts="Control+S"
        title={linked ? `Save to ${linked.path} (Ctrl+S)` : 'Save as a query file (Ctrl+S)'}
      >
        Save
      </Button>
      <Button
        onClick={startSaveAs}
        aria-keyshortcuts="Shift+Control+S"
        title="Save under another name (Shift+Ctrl+S)"
      >
        Save as…
      </Button>
      <Button
        variant="ghost"
        aria-pressed={shown}
        onClick={() => setShown((value) => !value)}
        title="Saved queries: .sql files in the library folder"
      >
        Library
      </Button>
      {/* A failed Save (or open) outside the dialogs: said here, next to the button. */}
      {error !== null && naming === null && deleting === null ? (
        <span className="sql-library-error" role="alert">
          {error.code === 'CONFLICT' ? `${error.message}.` : `Saved queries: ${error.message}`}
        </span>
      ) : null}
    </span>
  )

  const panel = shown ? (
    <LibraryPanel
      onOpen={(path) => void openFile(path)}
      onRename={(file) => {
        setName(file.path)
        setConflict(false)
        setError(null)
        setNaming({ kind: 'rename', file })
      }}
      onDelete={(file) => {
        setError(null)
        setDeleting(file)
      }}
    />
  ) : null

  const dialogs = (
    <>
      <Dialog
        open={naming !== null}
        title={naming?.kind === 'rename' ? `Rename ${naming.file.path}` : 'Save query as'}
        onClose={() => setNaming(null)}
        footer={
          <>
            <Button onClick={() => setNaming(null)} disabled={busy}>
              Cancel
            </Button>
            {conflict ? (
              <Button variant="danger" busy={busy} onClick={() => void submitName(true)}>
                Replace it
              </Button>
            ) : null}
            <Button variant="primary" busy={busy} onClick={() => void submitName(false)}>
              {naming?.kind === 'rename' ? 'Rename' : 'Save'}
            </Button>
          </>
        }
      >
        <form
          onSubmit={(event) => {
            event.preventDefault()
            void submitName(false)
          }}
        >
          <TextField
            label="File in the library"
            hint="A path such as orders/by-customer.sql; folders are made as needed."
            value={name}
            // The suggested name is selected as the dialog opens, so typing replaces it
            // (it used to be appended to: "query-1.sqlcustomers/by-name.sql").
            onFocus={(event) => event.currentTarget.select()}
            onChange={(event) => {
              setName(event.target.value)
              setConflict(false)
            }}
          />
        </form>
        {error !== null ? <ErrorBanner error={error} /> : null}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this saved query?"
        confirmLabel="Delete"
        busy={busy}
        error={error}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      >
        <p>
          <code>{deleting?.path}</code> is removed from the library folder.
        </p>
      </ConfirmDialog>
    </>
  )

  return { toolbar, panel, dialogs }
}
