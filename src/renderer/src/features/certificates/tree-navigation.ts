import type { FolderNode } from './model'

/*
 * The folder tree's keyboard, as the WAI-ARIA tree pattern has it: the tree is one
 * Tab stop (roving tabindex), Up/Down move through the items in view, Right opens a closed
 * folder or goes to its first child, Left closes an open one or goes to its parent, Home/End go
 * to the first/last item, Enter or Space selects. Pure, so it is tested without a browser.
 */

/** One item in view: "All certificates", "No folder", then the folders, open ones' children. */
export interface TreeItem {
  key: string
  level: number
  parentKey: string | null
  /** Position among its siblings (1-based) and how many they are: aria-posinset/setsize. */
  position: number
  siblings: number
  hasChildren: boolean
  expanded: boolean
  node: FolderNode | null
}

export const ALL_KEY = 'all'
export const NONE_KEY = 'none'

/** A folder's key: its path (JSON, so a name holding "/" cannot collide with a deeper path). */
export function folderKey(node: Pick<FolderNode, 'path'>): string {
  return `folder:${JSON.stringify(node.path)}`
}

/** The items in view, in order; folders whose key is in `collapsed` hide their children. */
export function visibleItems(
  tree: readonly FolderNode[],
  collapsed: ReadonlySet<string>,
): TreeItem[] {
  const topCount = 2 + tree.length
  const items: TreeItem[] = [leaf(ALL_KEY, 1, topCount), leaf(NONE_KEY, 2, topCount)]
  const walk = (
    nodes: readonly FolderNode[],
    level: number,
    parentKey: string | null,
    offset: number,
  ) => {
    nodes.forEach((node, index) => {
      const key = folderKey(node)
      const hasChildren = node.children.length > 0
      const expanded = hasChildren && !collapsed.has(key)
      items.push({
        key,
        level,
        parentKey,
        position: offset + index + 1,
        siblings: offset + nodes.length,
        hasChildren,
        expanded,
        node,
      })
      if (expanded) walk(node.children, level + 1, key, 0)
    })
  }
  walk(tree, 1, null, 2)
  return items
}

function leaf(key: string, position: number, siblings: number): TreeItem {
  return {
    key,
    level: 1,
    parentKey: null,
    position,
    siblings,
    hasChildren: false,
    expanded: false,
    node: null,
  }
}

/** What a key press does: where focus goes, which folder opens or closes, or a selection. */
export type TreeMove =
  | { kind: 'focus'; key: string }
  | { kind: 'expand'; key: string }
  | { kind: 'collapse'; key: string }
  | { kind: 'select'; key: string }
  | { kind: 'none' }

export function treeKeyMove(items: readonly TreeItem[], focused: string, key: string): TreeMove {
  const at = Math.max(
    0,
    items.findIndex((item) => item.key === focused),
  )
  const item = items[at]
  if (item === undefined) return { kind: 'none' }
  const focus = (index: number): TreeMove => {
    const target = items[index]
    return target === undefined ? { kind: 'none' } : { kind: 'focus', key: target.key }
  }
  switch (key) {
    case 'ArrowDown':
      return at + 1 < items.length ? focus(at + 1) : { kind: 'none' }
    case 'ArrowUp':
      return at > 0 ? focus(at - 1) : { kind: 'none' }
    case 'Home':
      return at > 0 ? focus(0) : { kind: 'none' }
    case 'End':
      return at < items.length - 1 ? focus(items.length - 1) : { kind: 'none' }
    case 'ArrowRight':
      if (!item.hasChildren) return { kind: 'none' }
      return item.expanded ? focus(at + 1) : { kind: 'expand', key: item.key }
    case 'ArrowLeft':
      if (item.expanded) return { kind: 'collapse', key: item.key }
      return item.parentKey === null ? { kind: 'none' } : { kind: 'focus', key: item.parentKey }
    case 'Enter':
    case ' ':
      return { kind: 'select', key: item.key }
    default:
      return { kind: 'none' }
  }
}
