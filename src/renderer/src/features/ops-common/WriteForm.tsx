import type { ReactNode } from 'react'
import type { Profile } from '../../../../shared/bridge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { FormIssues } from './FormIssues'
import type { useWrite } from './useWrite'
import { WriteConfirm } from './WriteConfirm'

/*
 * The page every one-write operation screen is: its form (the fields, what the service said
 * about no field, the submit button), the refusal, what was done, and the confirmation the
 * write asks for. The screen gives the fields, the words and the outcome.
 */

interface WriteFormProps {
  profile: Profile
  write: Pick<
    ReturnType<typeof useWrite>,
    'submit' | 'issues' | 'busy' | 'confirming' | 'error' | 'dialog'
  >
  /** The form's accessible name, e.g. "Cancel a copy job". */
  label: string
  submitLabel: string
  /** Danger for writes that stop or replace something, which always ask first. */
  tone: 'primary' | 'danger'
  /** The banner's lead-in when the service refuses, e.g. "The copy job was not cancelled". */
  failure: string
  /** E.g. the permission the write needs, beside the refusal. */
  failureAction?: ReactNode
  send(): void
  confirm: { title: string; confirmLabel: string; text: ReactNode }
  /** The fields. */
  children: ReactNode
  /** What was done, and the answer, below the form. */
  outcome: ReactNode
}

export function WriteForm({ profile, write, confirm, ...props }: WriteFormProps) {
  return (
    <>
      <form
        className="op-form"
        aria-label={props.label}
        onSubmit={(event) => {
          event.preventDefault()
          write.submit(props.send)
        }}
      >
        {props.children}
        <FormIssues issues={write.issues} />
        <div className="op-form-actions">
          <Button
            type="submit"
            variant={props.tone}
            busy={write.busy && !write.confirming}
            disabled={!profile.signedIn}
          >
            {props.submitLabel}
          </Button>
        </div>
      </form>

      {write.error && !write.confirming ? (
        <ErrorBanner error={write.error} context={props.failure} action={props.failureAction} />
      ) : null}
      {props.outcome}

      <WriteConfirm
        {...write.dialog}
        profile={profile}
        title={confirm.title}
        confirmLabel={confirm.confirmLabel}
        tone={props.tone}
        onConfirm={props.send}
      >
        {confirm.text}
      </WriteConfirm>
    </>
  )
}
