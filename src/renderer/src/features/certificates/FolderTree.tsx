import type { FolderNode } from './model'

/*
 * The folder tree built from the folders seen in certificate data. Choosing a folder narrows
 * the list to it and everything below it; "All" and "No folder" are above the tree.
 */

export type FolderSelection =
  { kind: 'all' } | { kind: 'none' } | { kind: 'folder'; node: FolderNode }

interface FolderTreeProps {
  tree: FolderNode[]
  selection: FolderSelection
  onSelect(selection: FolderSelection): void
}

export function FolderTree({ tree, selection, onSelect }: FolderTreeProps) {
  const isCurrent = (node: FolderNode) =>
    selection.kind === 'folder' && selection.node.path.join('/') === node.path.join('/')
  const renderNodes = (nodes: FolderNode[]) => (
    <ul>
      {nodes.map((node) => (
        <li key={node.path.join('/')}>
          <button
            type="button"
            className={`cert-tree-item${isCurrent(node) ? ' is-current' : ''}`}
            aria-current={isCurrent(node) ? 'true' : undefined}
            onClick={() => onSelect({ kind: 'folder', node })}
            title={node.id ?? 'Only seen as a parent: its id is not known'}
          >
            {node.name}
          </button>
          {node.children.length > 0 ? renderNodes(node.children) : null}
        </li>
      ))}
    </ul>
  )
  return (
    <nav className="cert-tree" aria-label="Folders">
      <button
        type="button"
        className={`cert-tree-item${selection.kind === 'all' ? ' is-current' : ''}`}
        aria-current={selection.kind === 'all' ? 'true' : undefined}
        onClick={() => onSelect({ kind: 'all' })}
      >
        All certificates
      </button>
      <button
        type="button"
        className={`cert-tree-item${selection.kind === 'none' ? ' is-current' : ''}`}
        aria-current={selection.kind === 'none' ? 'true' : undefined}
        onClick={() => onSelect({ kind: 'none' })}
      >
        No folder
      </button>
      <div>{renderNodes(tree)}</div>
    </nav>
  )
}
