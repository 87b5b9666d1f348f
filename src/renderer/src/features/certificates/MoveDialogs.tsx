import { useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { fieldErrorsFrom } from '../../lib/errors'
import { Button } from '../../ui/Button'
import { Dialog } from '../../ui/Dialog'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { choiceValue, FolderPicker, OTHER, TOP, type FolderChoice } from './FolderPicker'
import { folderLabel, subtreeIds, type FolderNode } from './model'
import { useAction } from './useAction'

/*
 * "Move to folder…" (op 10) on the selection and "Move folder…" (op 3). Both take a folder
 * from the tree or a typed id (validated as you type); the service's refusal lands on the field
 * it names (a folder moved into its own subtree: parentId).
 */

interface MoveCertificatesProps {
  profile: Profile
  ids: string[]
  tree: FolderNode[]
  onClose(): void
  onMoved(): void
}

export function MoveCertificatesDialog({
  profile,
  ids,
  tree,
  onClose,
  onMoved,
}: MoveCertificatesProps) {
  const [choice, setChoice] = useState<FolderChoice>({ option: TOP, typed: '' })
  const { busy, error, run, clearError } = useAction()
  const picked = choiceValue(choice)
  const fieldError = error
    ? fieldErrorsFrom(error.details, ['folderId'] as const).fields.folderId
    : undefined

  async function move() {
    if (picked.error) return
    const done = await run(() =>
      bridge.call('certificates.move', { profileId: profile.id, ids, folderId: picked.value }),
    )
    if (done) onMoved()
  }

  return (
    <Dialog
      open
      title={`Move ${ids.length === 1 ? '1 certificate' : `${ids.length} certificates`} to a folder`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            busy={busy}
            disabled={picked.error !== null}
            onClick={() => void move()}
          >
            Move
          </Button>
        </>
      }
    >
      <FolderPicker
        label="Destination folder"
        topLabel="No folder (top level)"
        tree={tree}
        choice={choice}
        onChange={(next) => {
          setChoice(next)
          clearError()
        }}
        error={fieldError}
      />
      {error && !fieldError ? (
        <ErrorBanner error={error} context="The certificates were not moved" />
      ) : null}
    </Dialog>
  )
}

interface MoveFolderProps {
  profile: Profile
  tree: FolderNode[]
  /** The folder selected in the tree, offered first. */
  initial: FolderNode | null
  onClose(): void
  onMoved(): void
}

export function MoveFolderDialog({ profile, tree, initial, onClose, onMoved }: MoveFolderProps) {
  const [folder, setFolder] = useState<FolderChoice>(
    initial?.id ? { option: initial.id, typed: '' } : { option: OTHER, typed: '' },
  )
  const [parent, setParent] = useState<FolderChoice>({ option: TOP, typed: '' })
  const { busy, error, run, clearError } = useAction()
  const moving = choiceValue(folder)
  const target = choiceValue(parent)
  const movingNode = moving.value === null ? null : findNode(tree, moving.value)
  const ownSubtree = new Set(movingNode ? subtreeIds(movingNode) : [])
  const fields = error ? fieldErrorsFrom(error.details, ['parentId', 'id'] as const).fields : {}
  const folderMissing = folder.option === TOP ? 'Choose the folder to move' : moving.error

  async function move() {
    if (folderMissing || target.error || moving.value === null) return
    const folderId = moving.value
    const done = await run(() =>
      bridge.call('certificates.moveFolder', {
        profileId: profile.id,
        folderId,
        parentId: target.value,
      }),
    )
    if (done) onMoved()
  }

  return (
    <Dialog
      open
      title="Move a folder"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            busy={busy}
            disabled={folderMissing !== null || target.error !== null}
            onClick={() => void move()}
          >
            Move folder
          </Button>
        </>
      }
    >
      <FolderPicker
        label="Folder to move"
        topLabel="(choose a folder)"
        tree={tree}
        choice={folder}
        onChange={(next) => {
          setFolder(next)
          clearError()
        }}
        error={fields.id}
      />
      {movingNode ? (
        <p className="muted">Moving “{folderLabel(movingNode.path)}” with everything in it.</p>
      ) : null}
      <FolderPicker
        label="New parent"
        topLabel="Top level (no parent)"
        tree={tree}
        choice={parent}
        onChange={(next) => {
          setParent(next)
          clearError()
        }}
        disabledIds={ownSubtree}
        disabledReason="inside the folder being moved"
        error={fields.parentId}
      />
      {error && !fields.parentId && !fields.id ? (
        <ErrorBanner error={error} context="The folder was not moved" />
      ) : null}
    </Dialog>
  )
}

function findNode(nodes: FolderNode[], id: string): FolderNode | null {
  for (const node of nodes) {
    if (node.id === id) return node
    const found = findNode(node.children, id)
    if (found) return found
  }
  return null
}
