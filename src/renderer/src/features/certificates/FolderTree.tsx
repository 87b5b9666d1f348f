import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { FolderNode } from './model'
import {
  ALL_KEY,
  folderKey,
  NONE_KEY,
  treeKeyMove,
  visibleItems,
  type TreeItem,
} from './tree-navigation'

/*
 * The folder tree built from the folders seen in certificate data. Choosing a folder narrows
 * the list to it and everything below it; "All certificates" and "No folder" come first. A
 * WAI-ARIA tree (tree-navigation.ts): one Tab stop, arrow keys inside, Enter selects, so the
 * certificate list is one Tab away however many folders there are.
 */

export type FolderSelection =
  { kind: 'all' } | { kind: 'none' } | { kind: 'folder'; node: FolderNode }

interface FolderTreeProps {
  tree: FolderNode[]
  selection: FolderSelection
  onSelect(selection: FolderSelection): void
}

function selectionKey(selection: FolderSelection): string {
  if (selection.kind === 'all') return ALL_KEY
  if (selection.kind === 'none') return NONE_KEY
  return folderKey(selection.node)
}

function selectionOf(item: TreeItem): FolderSelection {
  if (item.node !== null) return { kind: 'folder', node: item.node }
  return item.key === NONE_KEY ? { kind: 'none' } : { kind: 'all' }
}

export function FolderTree({ tree, selection, onSelect }: FolderTreeProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set())
  const [focusedKey, setFocusedKey] = useState<string | null>(null)
  const treeRef = useRef<HTMLUListElement>(null)
  const items = useMemo(() => visibleItems(tree, collapsed), [tree, collapsed])
  const byKey = useMemo(() => new Map(items.map((item) => [item.key, item])), [items])
  const currentKey = selectionKey(selection)
  // The one Tab stop: the item last moved to, else the selected one, else the first.
  const tabStop =
    focusedKey !== null && byKey.has(focusedKey)
      ? focusedKey
      : byKey.has(currentKey)
        ? currentKey
        : ALL_KEY

  function focusItem(key: string) {
    setFocusedKey(key)
    const element = treeRef.current?.querySelector<HTMLElement>(
      `[data-tree-key="${CSS.escape(key)}"]`,
    )
    element?.focus()
  }

  function setOpen(key: string, open: boolean) {
    setCollapsed((before) => {
      const next = new Set(before)
      if (open) next.delete(key)
      else next.add(key)
      return next
    })
  }

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const move = treeKeyMove(items, tabStop, event.key)
    if (move.kind === 'none') return
    event.preventDefault()
    event.stopPropagation()
    if (move.kind === 'focus') focusItem(move.key)
    else if (move.kind === 'expand') setOpen(move.key, true)
    else if (move.kind === 'collapse') setOpen(move.key, false)
    else {
      const item = byKey.get(move.key)
      if (item !== undefined) onSelect(selectionOf(item))
    }
  }

  const renderItem = (item: TreeItem) => {
    const current = item.key === currentKey
    const labelId = `cert-tree-label-${item.key.replace(/[^\w-]/g, (char) => `_${char.charCodeAt(0)}`)}`
    return (
      <li
        key={item.key}
        role="treeitem"
        aria-level={item.level}
        aria-posinset={item.position}
        aria-setsize={item.siblings}
        aria-selected={current}
        aria-expanded={item.hasChildren ? item.expanded : undefined}
        aria-labelledby={labelId}
        tabIndex={item.key === tabStop ? 0 : -1}
        data-tree-key={item.key}
        className="cert-tree-node"
        onFocus={(event) => {
          // Focus that lands on this item itself (a click, Tab), not bubbled from a child.
          if (event.target === event.currentTarget) setFocusedKey(item.key)
        }}
      >
        <div
          className={`cert-tree-item${current ? ' is-current' : ''}`}
          style={{ paddingLeft: 6 + (item.level - 1) * 12 }}
          title={
            item.node === null
              ? undefined
              : (item.node.id ?? 'Only seen as a parent: its id is not known')
          }
          onClick={() => {
            focusItem(item.key)
            onSelect(selectionOf(item))
          }}
        >
          {item.hasChildren ? (
            <span
              className="cert-tree-toggle"
              aria-hidden="true"
              onClick={(event) => {
                event.stopPropagation()
                focusItem(item.key)
                setOpen(item.key, !item.expanded)
              }}
            >
              {item.expanded ? '▾' : '▸'}
            </span>
          ) : (
            <span className="cert-tree-toggle" aria-hidden="true" />
          )}
          <span id={labelId}>
            {item.key === ALL_KEY
              ? 'All certificates'
              : item.key === NONE_KEY
                ? 'No folder'
                : (item.node?.name ?? '')}
          </span>
        </div>
      </li>
    )
  }

  return (
    <nav className="cert-tree" aria-label="Folder tree">
      <ul role="tree" aria-label="Folders" ref={treeRef} onKeyDown={onKeyDown}>
        {/*
         * Flat, each item placed by aria-level/-posinset/-setsize (indented by its level): an item
         * holding its children's group would read their names as its own visible text, which its
         * accessible name (its label alone) does not carry (axe: label-content-name-mismatch).
         */}
        {items.map(renderItem)}
      </ul>
    </nav>
  )
}
