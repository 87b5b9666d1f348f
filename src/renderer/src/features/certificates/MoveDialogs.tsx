import { useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { fieldErrorsFrom } from '../../lib/errors'
import { Dialog, DialogActions } from '../../ui/Dialog'
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
  const { busy, error, run, clearError } = useAction()
  const destination = usePickedFolder(tree, { option: TOP, typed: '' }, clearError)
  const picked = choiceValue(destination.choice)
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

  const moveAction = { label: 'Move', busy, disabled: picked.error !== null, run: move }
  return (
    <Dialog
      open
      title={`Move ${ids.length === 1 ? '1 certificate' : `${ids.length} certificates`} to a folder`}
      onClose={onClose}
      footer={<DialogActions onCancel={onClose} action={moveAction} />}
    >
      <FolderPicker
        label="Destination folder"
        topLabel="No folder (top level)"
        {...destination.picker}
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
  const { busy, error, run, clearError } = useAction()
  const folder = usePickedFolder(
    tree,
    initial?.id ? { option: initial.id, typed: '' } : { option: OTHER, typed: '' },
    clearError,
  )
  const parent = usePickedFolder(tree, { option: TOP, typed: '' }, clearError)
  const moving = choiceValue(folder.choice)
  const target = choiceValue(parent.choice)
  const movingNode = moving.value === null ? null : findNode(tree, moving.value)
  const ownSubtree = new Set(movingNode ? subtreeIds(movingNode) : [])
  const fields = error ? fieldErrorsFrom(error.details, ['parentId', 'id'] as const).fields : {}
  const folderMissing = folder.choice.option === TOP ? 'Choose the folder to move' : moving.error

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

  const moveAction = {
    label: 'Move folder',
    busy,
    disabled: folderMissing !== null || target.error !== null,
    run: move,
  }
  return (
    <Dialog
      open
      title="Move a folder"
      onClose={onClose}
      footer={<DialogActions onCancel={onClose} action={moveAction} />}
    >
      <FolderPicker
        label="Folder to move"
        topLabel="(choose a folder)"
        {...folder.picker}
        error={fields.id}
      />
      {movingNode ? (
        <p className="muted">Moving “{folderLabel(movingNode.path)}” with everything in it.</p>
      ) : null}
      <FolderPicker
        label="New parent"
        topLabel="Top level (no parent)"
        {...parent.picker}
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

/** A picker's choice; a new choice puts away the service's last refusal. */
function usePickedFolder(tree: FolderNode[], initial: FolderChoice, clearError: () => void) {
  const [choice, setChoice] = useState(initial)
  const onChange = (next: FolderChoice) => {
    setChoice(next)
    clearError()
  }
  return { choice, picker: { tree, choice, onChange } }
}

function findNode(nodes: FolderNode[], id: string): FolderNode | null {
  for (const node of nodes) {
    if (node.id === id) return node
    const found = findNode(node.children, id)
    if (found) return found
  }
  return null
}
