import { useState } from 'react'
import type { BridgeError, Profile } from '../../../../shared/bridge'
import { namesFields } from '../../lib/schema-form'
import { useCall, type CallOutcome } from './call'
import { isWorkFailed } from './WorkFailed'
import { needsConfirmation } from './WriteConfirm'

/** What a write needs of its form (a lib/schema-form form, or a list's own check). */
export interface WriteForm {
  /** Shows every field's error; null when a field is invalid. */
  check(): unknown
  /** Puts a 400/422's issues on the fields; returns those that name no field. */
  placeServerErrors(error: BridgeError): string[]
}

/*
 * The flow every write of the app's operation screens follows: check the fields, ask when the
 * harm (or a protected profile) calls for it, send, and put what the service said about fields
 * on them.
 */
export function useWrite<T>(profile: Profile, form: WriteForm, harmful: boolean) {
  const call = useCall<T>()
  const [confirming, setConfirming] = useState(false)
  const [issues, setIssues] = useState<string[]>([])

  const cancel = () => setConfirming(false)
  return {
    /** The profile written to (the form's page names it and checks it is signed in). */
    profile,
    busy: call.busy,
    error: call.error,
    value: call.value,
    clear: call.clear,
    confirming,
    /** Messages of a 400/422 that name no field of the form. */
    issues,
    /** The form's submit: checks the fields, then asks or sends at once. */
    submit(send: () => void) {
      call.clear()
      setIssues([])
      if (form.check() === null) return
      if (needsConfirmation(profile, harmful)) setConfirming(true)
      else send()
    },
    cancel,
    /** What the confirmation dialog takes from the flow (spread into WriteConfirm). */
    dialog: { open: confirming, busy: call.busy, error: call.error, onCancel: cancel },
    /** Runs the write; field errors go on the form (and the dialog closes to show them). */
    async send(work: () => Promise<T>): Promise<CallOutcome<T>> {
      const outcome = await call.run(work)
      if (outcome.ok) {
        setConfirming(false)
      } else if (namesFields(outcome.error)) {
        setIssues(form.placeServerErrors(outcome.error))
        setConfirming(false)
      } else if (isWorkFailed(outcome.error)) {
        // The write was made and answered: its failure is shown on the page, with the answer.
        setConfirming(false)
      }
      return outcome
    },
  }
}
