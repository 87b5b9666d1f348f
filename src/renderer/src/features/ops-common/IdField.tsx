import type { ReactNode } from 'react'
import type { KnownIds } from '../../lib/suggestions'
import { Field } from '../../ui/Field'
import { SuggestInput } from '../../ui/SuggestInput'

interface IdFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  /** Recent ids of this profile, then sandbox seed ids. */
  suggestions: readonly string[]
  /** Names beside the suggested ids, and which id a pasted console link gives. */
  known?: KnownIds
  error?: string | undefined
  hint?: ReactNode
  placeholder?: string
  disabled?: boolean
  /** Enter in the field (e.g. adds the id to a list) instead of submitting the form. */
  onEnter?: () => void
}

/**
 * An id input with its suggestions, checked as the user types (the owner passes the error). A
 * pasted link of the service's web console gives its id.
 */
export function IdField({
  label,
  value,
  onChange,
  suggestions,
  known,
  error,
  hint,
  placeholder,
  disabled,
  onEnter,
}: IdFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <SuggestInput
          {...control}
          className="input input-mono"
          value={value}
          suggestions={suggestions}
          names={known?.names}
          idKind={known?.kind}
          onIdPasted={onChange}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value.trim())}
          onKeyDown={
            onEnter
              ? (event) => {
                  if (event.key !== 'Enter') return
                  event.preventDefault()
                  onEnter()
                }
              : undefined
          }
        />
      )}
    </Field>
  )
}
