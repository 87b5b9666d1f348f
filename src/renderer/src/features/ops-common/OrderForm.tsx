import type { ReactNode } from 'react'
import type { Profile } from '../../../../shared/bridge'
import type { KnownOrder } from '../../../../shared/bridge/channels/operations'
import type { IdSuggestions } from '../../lib/suggestions'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { IssueList } from './IssueList'
import { OpForm } from './OpForm'
import { OrderEditor } from './OrderEditor'
import { orderNote } from './order-note'
import { Outcome } from './Outcome'
import type { useStartingOrder } from './useStartingOrder'
import { useWrite } from './useWrite'
import { WriteConfirm } from './WriteConfirm'

/*
 * Reorder and save (ops 9 and 11): the list, Save order (asked on a protected profile only:
 * an order harms nothing), the service's answer, and errors that name a row of the list.
 */

interface OrderFormProps {
  profile: Profile
  /** The form's accessible name, e.g. "Reorder environments". */
  label: string
  listLabel: string
  addLabel: string
  /** "environment", "template folder". */
  noun: string
  /** The list being ordered, where it started (useStartingOrder), and why it could not start. */
  order: Pick<ReturnType<typeof useStartingOrder>, 'ids' | 'setIds' | 'knownById' | 'error'>
  /** The banner's lead-in when the starting list could not be read. */
  startFailure: string
  /** The ids to suggest, with names beside them (objects the service's answers carried). */
  knownIds: IdSuggestions
  /** Fields before the list (the folder); `ready` says whether they are valid. */
  before?: ReactNode
  ready?: () => boolean
  save: (items: { id: string; sortOrder: number }[]) => Promise<KnownOrder>
  onSaved: (order: KnownOrder, ids: string[]) => void
  /** What the confirmation says is about to happen. */
  confirmText: ReactNode
}

export function OrderForm(props: OrderFormProps) {
  const { profile, noun } = props
  const { ids, knownById: known } = props.order
  const save = useWrite<KnownOrder>(
    profile,
    {
      // The list's own check: the fields before it, then at least one id.
      check: () => ((props.ready?.() ?? true) && ids.length > 0 ? ids : null),
      placeServerErrors: () => [],
    },
    false,
  )

  async function send() {
    const sent = [...ids]
    const outcome = await save.send(() =>
      props.save(sent.map((id, index) => ({ id, sortOrder: index + 1 }))),
    )
    if (outcome.ok) props.onSaved(outcome.value, sent)
  }

  return (
    <>
      {props.order.error ? (
        <ErrorBanner error={props.order.error} context={props.startFailure} />
      ) : null}
      <OpForm
        label={props.label}
        onSubmit={() => save.submit(() => void send())}
        submit={{
          label: 'Save order',
          busy: save.busy && !save.confirming,
          disabled: !profile.signedIn || ids.length === 0,
          note: <span className="muted">{orderNote(noun, ids.length)}</span>,
        }}
      >
        {props.before}
        <OrderEditor
          label={props.listLabel}
          ids={ids}
          onChange={(next) => {
            save.clear()
            props.order.setIds(next)
          }}
          known={known}
          suggestions={props.knownIds.suggestions}
          knownIds={props.knownIds}
          addLabel={props.addLabel}
          disabled={save.busy}
        />
      </OpForm>
      {save.error && !save.confirming ? (
        <>
          <ErrorBanner error={save.error} context="The order was not saved" />
          <IssueList error={save.error} ids={ids} names={known} />
        </>
      ) : null}
      {save.value ? (
        <Outcome title="New order saved">
          {ids.map((id) => known.get(id)?.name ?? id).join(' → ')}
        </Outcome>
      ) : null}
      <WriteConfirm
        {...save.dialog}
        profile={profile}
        title="Save this order?"
        confirmLabel="Save order"
        tone="primary"
        onConfirm={() => void send()}
      >
        {props.confirmText}
      </WriteConfirm>
    </>
  )
}
