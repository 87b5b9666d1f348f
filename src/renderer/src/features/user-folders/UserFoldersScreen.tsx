import { useState } from 'react'
import { z } from 'zod'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useSchemaForm } from '../../lib/schema-form'
import { KnownName } from '../../ui/KnownName'
import { useIdSuggestions } from '../../lib/suggestions'
import { AnswerSection } from '../ops-common/AnswerSection'
import { callOperation, dataOf, text } from '../ops-common/call'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { WriteForm } from '../ops-common/WriteForm'
import '../ops-common/ops.css'

/*
 * User folders (admin): move a folder under another one or to the top level (op 4,
 * `parentId: null`). Moving a folder moves everything in it, so it is always confirmed.
 */

const { params, body } = operations.moveUserFolder
if (body === null) throw new Error('Op 4 takes a body')
/** Moving to the top level sends `parentId: null`: nothing to type, nothing to check. */
const toTopLevel = params.extend({ parentId: z.string() })
/** Into another folder: the contract's `parentId` (a UUID or null), null not being typed. */
const intoFolder = params.extend({ parentId: body.shape.parentId.unwrap() })

type Destination = 'folder' | 'top'

export function UserFoldersScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const [destination, setDestination] = useState<Destination>('folder')
  const form = useSchemaForm(destination === 'top' ? toTopLevel : intoFolder, {
    id: routeParams['id'] ?? '',
    parentId: routeParams['parentId'] ?? '',
  })
  const { id: folderId, parentId } = form.values
  const folders = useIdSuggestions(
    profile,
    'user-folder',
    (seed) => seed['userFolders'] as string[],
  )
  const intoItself =
    destination === 'folder' && parentId !== '' && parentId === folderId
      ? 'A folder cannot be moved into itself'
      : undefined
  const move = useWrite<{ id: string; parentId: string | null; folder: unknown }>(
    profile,
    {
      check: () => {
        const checked = form.check()
        return intoItself === undefined ? checked : null
      },
      placeServerErrors: form.placeServerErrors,
    },
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
      <WriteForm
        write={move}
        label="Move a user folder"
        submitLabel="Move folder…"
        failure="The folder was not moved"
        send={send}
        confirmTitle="Move this user folder?"
        confirmText={
          <p>
            Folder <KnownName id={folderId} /> moves{' '}
            {destination === 'top' ? (
              <strong>to the top level</strong>
            ) : (
              <>
                into folder <KnownName id={parentId} />
              </>
            )}
            , with everything inside it.
          </p>
        }
        outcome={
          <>
            {move.value ? (
              <Outcome
                title={
                  <>
                    {name ?? `Folder ${move.value.id}`} moved{' '}
                    {move.value.parentId === null ? (
                      'to the top level'
                    ) : (
                      // The target's name where the app has seen it, its id beside.
                      <>
                        into <KnownName id={move.value.parentId} />
                      </>
                    )}
                  </>
                }
              />
            ) : null}
            <AnswerSection noun="folder" label="Moved folder" value={folder} />
          </>
        }
      >
        <IdField label="Folder ID" {...form.field('id')} known={folders} />
        <fieldset className="field">
          <legend className="field-label">Move to</legend>
          {DESTINATIONS.map((choice) => (
            <label key={choice.value} className="checkbox">
              <input
                type="radio"
                name="destination"
                checked={destination === choice.value}
                onChange={() => setDestination(choice.value)}
              />
              {choice.label}
            </label>
          ))}
        </fieldset>
        {destination === 'folder' ? (
          <IdField
            label="New parent folder ID"
            {...form.field('parentId')}
            error={intoItself ?? form.errorOf('parentId')}
            suggestions={folders.suggestions.filter((value) => value !== folderId)}
            known={folders}
            hint="A UUID. The folder cannot go into itself or one of its subfolders."
          />
        ) : null}
      </WriteForm>
    </OpScreen>
  )
}

const DESTINATIONS: { value: Destination; label: string }[] = [
  { value: 'folder', label: 'Inside another folder' },
  { value: 'top', label: 'The top level' },
]
