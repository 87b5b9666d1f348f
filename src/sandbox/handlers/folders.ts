import type { OperationHandler } from '../context'
import { notFound, unprocessable } from '../failure'
import { json } from '../http'
import type { FolderRecord } from '../state'
import { folderView } from '../views'
import { applySortOrders } from './ordering'

/** Whether `candidateId` is `folderId` itself or lies anywhere beneath it. */
function isSelfOrDescendant(
  folders: FolderRecord[],
  folderId: string,
  candidateId: string,
): boolean {
  const seen = new Set<string>()
  let current: FolderRecord | undefined = folders.find((folder) => folder.id === candidateId)
  while (current && !seen.has(current.id)) {
    if (current.id === folderId) return true
    seen.add(current.id)
    const parentId = current.parentId
    current = folders.find((folder) => folder.id === parentId)
  }
  return false
}

/**
 * Moves a folder under another, or to the top level for `parentId: null` (docs/SERVICE.md,
 * "`parentId: null`").
 * A folder cannot go into itself or its own subtree: that would cut it off from the tree.
 */
function moveFolder(
  folders: FolderRecord[],
  resource: string,
  id: string,
  parentId: string | null,
  now: Date,
) {
  const folder = folders.find((candidate) => candidate.id === id)
  if (!folder) throw notFound({ resource, id })
  if (parentId !== null) {
    if (!folders.some((candidate) => candidate.id === parentId)) {
      throw notFound({ resource, id: parentId, field: 'parentId' })
    }
    if (isSelfOrDescendant(folders, id, parentId)) {
      throw unprocessable([
        {
          path: ['parentId'],
          message: 'A folder cannot be moved into itself or one of its subfolders',
        },
      ])
    }
  }
  if (folder.parentId !== parentId) {
    const siblings = folders.filter((candidate) => candidate.parentId === parentId)
    folder.parentId = parentId
    folder.sortOrder = Math.max(0, ...siblings.map((sibling) => sibling.sortOrder)) + 1
  }
  folder.updatedAt = now.toISOString()
  return folderView(folder, folders)
}

/** Op 3 */
const moveCertificateFolder: OperationHandler<'moveCertificateFolder'> = ({
  core,
  params,
  body,
}) => {
  const folders = core.state.certificateFolders
  const view = moveFolder(folders, 'certificateFolder', params.id, body.parentId, core.now())
  const certificateCount = core.state.certificates.filter(
    (certificate) => certificate.folderId === view.id,
  ).length
  return json({ data: { ...view, certificateCount } })
}

/** Op 4 */
const moveUserFolder: OperationHandler<'moveUserFolder'> = ({ core, params, body }) => {
  return json({
    data: moveFolder(core.state.userFolders, 'userFolder', params.id, body.parentId, core.now()),
  })
}

/**
 * Op 9: sets each named folder's sortOrder and answers with the whole list in its new order.
 * The gateway flavour: `{"success": true}` and a negative sortOrder refused, as a real one.
 */
const reorderNginxTemplateFolders: OperationHandler<'reorderNginxTemplateFolders'> = ({
  core,
  body,
}) => {
  const folders = core.state.nginxTemplateFolders
  const gateway = core.flavor === 'gateway'
  applySortOrders(body.items, folders, 'nginxTemplateFolder', core.now().toISOString(), {
    nonNegative: gateway,
  })
  if (gateway) return json({ success: true })
  const ordered = [...folders].sort(
    (a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name),
  )
  return json({ data: ordered })
}

export const folderHandlers = { moveCertificateFolder, moveUserFolder, reorderNginxTemplateFolders }
