import { useState } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useIdSuggestions } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { callOperation, checkWith, dataOf, text, useFieldChecks } from '../ops-common/form'
import { AnswerSection } from '../ops-common/AnswerSection'
import { FormIssues } from '../ops-common/FormIssues'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { WriteConfirm } from '../ops-common/WriteConfirm'
import '../ops-common/ops.css'

/*
 * User folders (admin): move a folder under another one or to the top level (op 4,
 * `parentId: null`). Moving a folder moves everything in it, so it is always confirmed.
 */

const idSchema = operations.moveUserFolder.params.shape.id
/** The contract's `parentId` (a UUID or null); null is the top-level choice, not typed. */
const parentSchema = operations.moveUserFolder.body?.shape.parentId.unwrap()

type Destination = 'folder' | 'top'

export function UserFoldersScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const [folderId, setFolderId] = useState(routeParams['id'] ?? '')
  const [destination, setDestination] = useState<Destination>('folder')
  const [parentId, setParentId] = useState(routeParams['parentId'] ?? '')
  const folders = useIdSuggestions(
    profile,
    'user-folder',
    (seed) => seed['userFolders'] as string[],
  )
  const checks = useFieldChecks(
    { id: folderId, parentId },
    {
      id: (value) => checkWith(idSchema, value),
      parentId: (value) =>
        destination === 'top'
          ? undefined
          : value === folderId && value !== ''
            ? 'A folder cannot be moved into itself'
            : parentSchema
              ? checkWith(parentSchema, value)
              : undefined,
    },
  )
  const move = useWrite<{ id: string; parentId: string | null; folder: unknown }>(
    profile,
    checks,
    true,
  )

  async function send() {
    const target = destination === 'top' ? null : parentId
    const id = folderId
    const outcome = await move.send(async () => {
      const answer = await callOperation(profile.id, 'moveUserFolder', {
        params: { id },
        body: { parentId: target },
      })
      return { id, parentId: target, folder: dataOf(answer) }
    })
    if (outcome.ok) {
      folders.remember(id)
      if (target !== null) folders.remember(target)
    }
  }

  const folder = move.value?.folder
  const name = text(folder, 'name')
  return (
    <OpScreen title="User folders" doing="Move a user folder (admin) on" profile={profile}>
      <form
        className="op-form"
        aria-label="Move a user folder"
        onSubmit={(event) => {
          event.preventDefault()
          move.submit(() => void send())
        }}
      >
        <IdField
          label="Folder ID"
          value={folderId}
          onChange={setFolderId}
          suggestions={folders.suggestions}
          error={checks.errors.id}
        />
        <fieldset className="field">
          <legend className="field-label">Move to</legend>
          <label className="checkbox">
            <input
              type="radio"
              name="destination"
              checked={destination === 'folder'}
              onChange={() => setDestination('folder')}
            />
            Inside another folder
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="destination"
              checked={destination === 'top'}
              onChange={() => setDestination('top')}
            />
            The top level
          </label>
        </fieldset>
        {destination === 'folder' ? (
          <IdField
            label="New parent folder ID"
            value={parentId}
            onChange={setParentId}
            suggestions={folders.suggestions.filter((value) => value !== folderId)}
            error={checks.errors.parentId}
            hint="A UUID. The folder cannot go into itself or one of its subfolders."
          />
        ) : null}
        <FormIssues issues={move.issues} />
        <div className="op-form-actions">
          <Button type="submit" variant="primary" disabled={!profile.signedIn}>
            Move folder…
          </Button>
        </div>
      </form>

      {move.error && !move.confirming ? (
        <ErrorBanner error={move.error} context="The folder was not moved" />
      ) : null}

      {move.value ? (
        <Outcome
          title={`${name ?? `Folder ${move.value.id}`} moved ${
            move.value.parentId === null ? 'to the top level' : `into ${move.value.parentId}`
          }`}
        />
      ) : null}
      <AnswerSection
        heading="The folder as the service returned it"
        label="Moved folder"
        value={folder}
      />

      <WriteConfirm
        {...move.dialog}
        profile={profile}
        title="Move this user folder?"
        confirmLabel="Move folder"
        tone="primary"
        onConfirm={() => void send()}
      >
        <p>
          Folder <code>{folderId}</code> moves{' '}
          {destination === 'top' ? (
            <strong>to the top level</strong>
          ) : (
            <>
              into folder <code>{parentId}</code>
            </>
          )}
          , with everything inside it.
        </p>
      </WriteConfirm>
    </OpScreen>
  )
}
