import { useEffect, useImperativeHandle, useRef, type ReactNode, type Ref } from 'react'
import { Button } from '../../ui/Button'
import { FormIssues } from './FormIssues'
import { AMBIGUOUS_NAME_ATTRIBUTE } from './IdField'

/*
 * The form of an operation screen or dialog. It never sends while one of its id fields holds a
 * name several known objects share (IdField marks such a field and says which ids it could be):
 * the focus goes to that field instead. Every form with an IdField is one of these, so the
 * refusal is the same everywhere.
 */

/**
 * Focuses the first id field inside `scope` whose name is ambiguous; true when there is one (the
 * caller then does not send). For actions outside a form, e.g. a dialog's footer button.
 */
export function refusesAmbiguousName(scope: Element | null): boolean {
  const ambiguous = scope?.querySelector<HTMLElement>(`[${AMBIGUOUS_NAME_ATTRIBUTE}]`) ?? null
  ambiguous?.focus()
  return ambiguous !== null
}

interface OpFormProps {
  /** The form's accessible name, e.g. "List app members". */
  label?: string
  className?: string
  formRef?: Ref<HTMLFormElement>
  noValidate?: boolean
  /** Called on submit (the default already prevented) unless an id field's name is ambiguous. */
  onSubmit(): void
  /** The fields. */
  children: ReactNode
  /** What the service said about no field, above the submit button. */
  issues?: readonly string[]
  /** The submit button under the fields (a form that lays out its own gives none). */
  submit?: SubmitButton
}

interface SubmitButton {
  label: string
  busy: boolean
  disabled: boolean
  tone?: 'primary' | 'danger'
  /** Beside the button, e.g. how many items the list has. */
  note?: ReactNode
}

export function OpForm({
  label,
  className = 'op-form',
  formRef,
  noValidate,
  onSubmit,
  children,
  issues,
  submit,
}: OpFormProps) {
  const ownRef = useRef<HTMLFormElement>(null)
  useImperativeHandle(formRef, () => ownRef.current as HTMLFormElement)
  const awaitingVerdictRef = useFocusOnFirstRefusedField(ownRef)
  return (
    <form
      ref={ownRef}
      className={className}
      aria-label={label}
      noValidate={noValidate}
      // Typing or choosing again is the user's next step: the focus is theirs from then on.
      onInputCapture={() => (awaitingVerdictRef.current = false)}
      onSubmit={(event) => {
        event.preventDefault()
        if (refusesAmbiguousName(event.currentTarget)) return
        awaitingVerdictRef.current = true
        onSubmit()
      }}
    >
      {children}
      {issues ? <FormIssues issues={issues} /> : null}
      {submit ? (
        <div className="op-form-actions">
          <Button
            type="submit"
            variant={submit.tone ?? 'primary'}
            busy={submit.busy}
            disabled={submit.disabled}
          >
            {submit.label}
          </Button>
          {submit.note}
        </div>
      ) : null}
    </form>
  )
}

/**
 * After a submit, the first field marked invalid (by the form's own check at once, or by the
 * service's `details[].path` when its answer comes) takes the focus, as the profile form does:
 * left on the submit button, a keyboard user had to hunt back up for what to fix.
 */
function useFocusOnFirstRefusedField(form: { readonly current: HTMLFormElement | null }) {
  const awaitingVerdictRef = useRef(false)
  // Every render: the field's error may arrive with any later one (the service's answer).
  useEffect(() => {
    if (!awaitingVerdictRef.current) return
    const refused = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')
    if (!refused) return
    awaitingVerdictRef.current = false
    refused.focus()
  })
  return awaitingVerdictRef
}
