import type { ReactNode } from 'react'
import { Field } from '../../ui/Field'
import { SuggestInput } from '../../ui/SuggestInput'

interface IdFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  /** Recent ids of this profile, then sandbox seed ids. */
  suggestions: readonly string[]
  error?: string | undefined
  hint?: ReactNode
  placeholder?: string
  disabled?: boolean
  /** Enter in the field (e.g. adds the id to a list) instead of submitting the form. */
  onEnter?: () => void
}

/** An id input with its suggestions, checked as the user types (the owner passes the error). */
export function IdField({
  label,
  value,
  onChange,
  suggestions,
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
