import { useState, type MouseEvent } from 'react'
import type { Migration } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { useKnownLookup } from '../../lib/known-objects'
import { namesFields, useSchemaForm } from '../../lib/schema-form'
import { useIdSuggestions } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { Checkbox } from '../../ui/CheckboxField'
import { ChoiceCards, type CardChoice } from '../../ui/ChoiceCard'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { Dialog } from '../../ui/Dialog'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { FormIssues } from '../ops-common/FormIssues'
import { IdField } from '../ops-common/IdField'
import { refusesAmbiguousName } from '../ops-common/OpForm'
import { useWrite } from '../ops-common/useWrite'
import { explainResolveError } from './explain'
import { KnownMigration } from './KnownMigration'
import { resolveFormSchema, type AuthoritativeSide } from './form-schema'

/*
 * Op 13, sent in deliberate steps: the dialog first says what resolving does (in the spec's own
 * terms), the operator picks the authoritative side and ticks "I have reconciled both nodes"
 * before Resolve is enabled; a protected profile asks once more, naming the migration.
 *
 * The service cannot read a migration (op 13 is its only migration operation), so the dialog
 * shows what an earlier answer carried (KnownMigration). When nothing did, the decision would be
 * taken blind: a second tick asks the operator to confirm they checked the migration in the
 * service's console, where its resource, nodes, status and reason are.
 */

const SIDES: CardChoice<AuthoritativeSide>[] = [
  {
    value: 'target',
    title: 'Target node',
    text: 'The target node becomes authoritative: the migrated copy is the one that counts.',
  },
  {
    value: 'source',
    title: 'Source node',
    text:
      'The source node becomes authoritative, and the restart policy the migration replaced ' +
      'on the source is restored.',
  },
]

interface ResolveMigrationDialogProps {
  profile: Profile
  initialId: string
  onClose(): void
  onResolved(migration: Migration): void
}

export function ResolveMigrationDialog({
  profile,
  initialId,
  onClose,
  onResolved,
}: ResolveMigrationDialogProps) {
  const form = useSchemaForm(resolveFormSchema, {
    id: initialId,
    // No side until the operator picks one: the contract's enum reports it as a missing choice.
    authoritativeSide: '' as AuthoritativeSide,
  })
  const [reconciled, setReconciled] = useState(false)
  // The id the operator confirmed checking in the console: any change of the id asks again
  // (state adjusted while rendering, as React advises, rather than in an effect).
  const [checkedBlindId, setCheckedBlindId] = useState<string | null>(null)
  const [idSeen, setIdSeen] = useState(form.values.id)
  if (idSeen !== form.values.id) {
    setIdSeen(form.values.id)
    setCheckedBlindId(null)
  }
  // Resolving only records a decision: asked once more on a protected profile only.
  const resolve = useWrite<Migration>(profile, form, false)
  const { busy, confirming, error } = resolve
  const ids = useIdSuggestions(profile, 'migration', (seed) => {
    const migrations = seed['migrations'] as Record<string, string[]> | undefined
    return migrations?.['needs_attention'] ?? []
  })
  const idToLookUp =
    form.values.id !== '' && form.errorOf('id') === undefined ? form.values.id : null
  const known = useKnownLookup(profile.id, idToLookUp)
  // Until main answers, or if it cannot, nothing is known: the second tick is asked for then too.
  const blind = idToLookUp !== null && known.object?.kind !== 'migration'
  const checkedBlind = !blind || checkedBlindId === form.values.id
  const ready = form.valid && reconciled && checkedBlind

  /** From the footer's button, which sits in the dialog beside the id field. */
  function requestResolve(event: MouseEvent<HTMLElement>) {
    if (refusesAmbiguousName(event.currentTarget.closest('dialog'))) return
    if (reconciled && checkedBlind) resolve.submit(() => void send())
  }

  async function send() {
    const input = form.check()
    if (!input || !reconciled || !checkedBlind) return
    const outcome = await resolve.send(() =>
      bridge.call('migrations.resolve', {
        profileId: profile.id,
        id: input.id,
        authoritativeSide: input.authoritativeSide,
      }),
    )
    // Whatever the answer, the confirmation closes: the dialog shows what happened.
    resolve.cancel()
    if (outcome.ok) {
      ids.remember(input.id)
      onResolved(outcome.value)
    }
  }

  // A 400 whose every issue sits on a field needs no banner; anything else is shown in full.
  const explainedByFields =
    error?.code === 'VALIDATION_ERROR' && namesFields(error) && resolve.issues.length === 0
  const shownError = explainedByFields ? null : error
  const explanation = shownError
    ? explainResolveError(shownError, form.values.id, profile.name)
    : null
  const chosen = SIDES.find((side) => side.value === form.values.authoritativeSide)

  return (
    <>
      <Dialog
        open
        title="Resolve a migration"
        width="wide"
        onClose={busy ? () => undefined : onClose}
        footer={
          <>
            <Button onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant="primary"
              onClick={requestResolve}
              disabled={!ready}
              busy={busy && !confirming}
            >
              Resolve migration
            </Button>
          </>
        }
      >
        <p>
          For a migration that needs attention (status <code>needs_attention</code>), on{' '}
          <strong>{profile.name}</strong>. Resolving records your decision:
        </p>
        <ul className="resolve-effects" aria-label="What resolving does">
          <li>The chosen node, source or target, becomes authoritative.</li>
          <li>The migration lock and the maintenance mode it entered are released.</li>
          <li>Choosing source restores the restart policy the migration replaced on the source.</li>
          <li>
            No container is started or removed: bring both nodes to the state you want before
            resolving.
          </li>
        </ul>

        <IdField
          label="Migration id"
          {...form.field('id')}
          known={ids}
          hint="Recent ids, migrations an answer named and, on the sandbox, those that need attention are suggested. A link from the service's console gives its id."
          placeholder="e.g. 7d9f0c1e-…"
        />
        {idToLookUp !== null ? <KnownMigration profileId={profile.id} id={idToLookUp} /> : null}

        <fieldset
          className="field resolve-sides"
          aria-describedby={form.errorOf('authoritativeSide') ? 'resolve-side-error' : undefined}
        >
          <legend className="field-label">Authoritative side</legend>
          <ChoiceCards
            choices={SIDES}
            value={form.values.authoritativeSide}
            onChoose={(side) => form.set('authoritativeSide', side)}
            className="resolve-side"
            textClassName="resolve-side-text"
          />
          {form.errorOf('authoritativeSide') ? (
            <div className="field-error" id="resolve-side-error">
              {form.errorOf('authoritativeSide')}
            </div>
          ) : null}
        </fieldset>

        <Checkbox className="resolve-reconciled" checked={reconciled} onChange={setReconciled}>
          I have reconciled both nodes
        </Checkbox>
        {blind ? (
          <Checkbox
            className="resolve-checked-blind"
            checked={checkedBlindId === form.values.id}
            onChange={(checked) => setCheckedBlindId(checked ? form.values.id : null)}
          >
            I have checked this migration in the service’s console: what it moves, its nodes, its
            status and why it stopped (Infradesk cannot show them)
          </Checkbox>
        ) : null}
        {!reconciled || !checkedBlind ? (
          <p className="field-hint">
            Resolve is enabled once you tick {blind ? 'both boxes' : 'this'}.
          </p>
        ) : null}

        <FormIssues issues={resolve.issues} />
        {shownError ? (
          <div className="resolve-error">
            {explanation ? (
              <div className="resolve-explanation">
                <strong>{explanation.title}</strong>
                <p>{explanation.text}</p>
              </div>
            ) : null}
            <ErrorBanner error={shownError} context="The service refused the resolution" />
          </div>
        ) : null}
      </Dialog>

      <ConfirmDialog
        open={confirming}
        title={`Resolve migration ${form.values.id}?`}
        confirmLabel="Resolve migration"
        tone="danger"
        busy={busy}
        onConfirm={() => void send()}
        onCancel={resolve.cancel}
      >
        <p>
          <strong>{profile.name}</strong> is a protected profile. You are about to resolve migration{' '}
          <code>{form.values.id}</code> with the{' '}
          <strong>{chosen?.title.toLowerCase() ?? 'chosen node'}</strong> as authoritative.
        </p>
        {blind ? (
          <p>
            Infradesk knows nothing else of this migration: you confirmed checking it in the
            service’s console.
          </p>
        ) : null}
        <p>This releases its lock and maintenance mode and cannot be undone from Infradesk.</p>
      </ConfirmDialog>
    </>
  )
}
