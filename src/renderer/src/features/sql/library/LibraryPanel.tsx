import { useEffect, useState } from 'react'
import type { QueryFile, QueryFolder } from '../../../../../shared/bridge/channels/sql-library'
import { bridge } from '../../../bridge'
import { useBridgeRead } from '../../../lib/use-bridge-read'
import { Button } from '../../../ui/Button'
import { ErrorBanner } from '../../../ui/ErrorBanner'
import { FilterInput } from '../../../ui/FilterInput'

/*
 * The saved-query library beside the editor: the folder's tree, a search over names, titles
 * and text, and per file Open (in a new tab), Rename and Delete. It lists again whenever main
 * says the folder changed, by the app or by anyone else (a `git pull`).
 */

interface LibraryPanelProps {
  onOpen(path: string): void
  onRename(file: QueryFile): void
  onDelete(file: QueryFile): void
}

export function LibraryPanel({ onOpen, onRename, onDelete }: LibraryPanelProps) {
  const [search, setSearch] = useState('')
  const [version, setVersion] = useState(0)
  useEffect(() => bridge.on('sqlLibrary.changed', () => setVersion((value) => value + 1)), [])

  const tree = useBridgeRead(() => bridge.call('sqlLibrary.list', {}), [version], null)
  const query = search.trim()
  const hits = useBridgeRead(
    () => bridge.call('sqlLibrary.search', { query }),
    [query, version],
    [],
    { enabled: query !== '', delayMs: 200 },
  )

  const row = (file: QueryFile, extra: string | null = null) => (
    <li key={file.path} className="sql-library-file">
      <button
        type="button"
        className="sql-library-open"
        title={[file.path, file.description].filter(Boolean).join('\n')}
        onClick={() => onOpen(file.path)}
      >
        {file.title ?? file.name}
      </button>
      {extra !== null ? <div className="sql-library-snippet">{extra}</div> : null}
      <span className="sql-library-actions">
        {(
          [
            ['Rename', onRename],
            ['Delete', onDelete],
          ] as const
        ).map(([action, onClick]) => (
          <Button
            key={action}
            size="small"
            variant="ghost"
            aria-label={`${action} ${file.path}`}
            onClick={() => onClick(file)}
          >
            {action}
          </Button>
        ))}
      </span>
    </li>
  )

  const folder = (node: QueryFolder) => (
    <ul className="sql-library-list">
      {node.children.map((child) =>
        child.kind === 'file' ? (
          row(child)
        ) : (
          <li key={child.path}>
            <details open>
              <summary>{child.name}</summary>
              {folder(child)}
            </details>
          </li>
        ),
      )}
    </ul>
  )

  const error = query !== '' ? hits.error : tree.error
  return (
    <aside className="sql-library" aria-label="Saved queries">
      <h2 className="sql-library-title">Saved queries</h2>
      <FilterInput type="search" label="Search saved queries" value={search} onChange={setSearch} />
      {error ? <ErrorBanner error={error} context="Saved queries" /> : null}
      {query !== '' ? (
        hits.value.length === 0 ? (
          <p className="muted">{hits.loading ? 'Searching…' : 'No saved query matches.'}</p>
        ) : (
          <ul className="sql-library-list">
            {hits.value.map((hit) =>
              row(hit.file, hit.snippet === null ? null : `${hit.line}: ${hit.snippet}`),
            )}
          </ul>
        )
      ) : tree.value === null ? (
        <p className="muted">Loading…</p>
      ) : tree.value.root.children.length === 0 ? (
        <p className="muted">No saved queries yet. Save a tab to add one.</p>
      ) : (
        folder(tree.value.root)
      )}
      {tree.value !== null ? (
        <p className="muted sql-library-folder" title={tree.value.folder}>
          {tree.value.folder}
        </p>
      ) : null}
    </aside>
  )
}
