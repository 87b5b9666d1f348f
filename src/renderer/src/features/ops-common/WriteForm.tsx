import type { ReactNode, Ref } from 'react'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { OpForm } from './OpForm'
import type { useWrite } from './useWrite'
import { isWorkFailed, WorkFailed } from './WorkFailed'
import { WriteConfirm } from './WriteConfirm'

/*
 * The page every one-write operation screen is: its form (the fields, what the service said
 * about no field, the submit button), the refusal, what was done, and the confirmation the
 * write asks for. The screen gives the fields, the words and the outcome.
 */

interface WriteFormProps {
  write: Pick<
    ReturnType<typeof useWrite>,
    'profile' | 'submit' | 'issues' | 'busy' | 'confirming' | 'error' | 'dialog'
  >
  /** For writes that stop or replace something, which always ask first. */
  danger?: boolean
  /** The form's accessible name, e.g. "Cancel a copy job". */
  label: string
  /** Also the confirm button's label, without the ellipsis that says a question follows. */
  submitLabel: string
  /** The banner's lead-in when the service refuses, e.g. "The copy job was not cancelled". */
  failure: string
  /** E.g. the permission the write needs, beside the refusal. */
  failureAction?: ReactNode
  send(): Promise<unknown>
  confirmTitle: string
  /** What the confirmation says will happen. */
  confirmText: ReactNode
  /** The fields. */
  children: ReactNode
  /** What was done, and the answer, below the form. */
  outcome: ReactNode
  /** The form element (the palette's request puts the focus in it: useOperationForm). */
  formRef?: Ref<HTMLFormElement>
}

export function WriteForm({ write, formRef, ...props }: WriteFormProps) {
  const { profile } = write
  const tone = props.danger ? 'danger' : 'primary'
  const send = () => void props.send()
  return (
    <>
      <OpForm
        formRef={formRef}
        label={props.label}
        onSubmit={() => write.submit(send)}
        issues={write.issues}
        submit={{
          label: props.submitLabel,
          tone,
          busy: write.busy && !write.confirming,
          disabled: !profile.signedIn,
        }}
      >
        {props.children}
      </OpForm>

      {write.error && !write.confirming ? (
        isWorkFailed(write.error) ? (
          <WorkFailed error={write.error} context={props.failure} />
        ) : (
          <ErrorBanner error={write.error} context={props.failure} action={props.failureAction} />
        )
      ) : null}
      {props.outcome}

      <WriteConfirm
        {...write.dialog}
        profile={profile}
        title={props.confirmTitle}
        confirmLabel={props.submitLabel.replace(/…$/, '')}
        tone={tone}
        onConfirm={send}
      >
        {props.confirmText}
      </WriteConfirm>
    </>
  )
}
