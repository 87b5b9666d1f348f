import type { ReactNode } from 'react'
import type { IdSuggestions, KnownIds } from '../../lib/suggestions'
import { Field } from '../../ui/Field'
import { SuggestInput } from '../../ui/SuggestInput'
import { whereIdsComeFrom } from '../../lib/id-kinds'
import { ambiguousNameMessage, readNameOrId } from './name-or-id'
import './ops.css'

interface IdFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  /** Recent ids of this profile, then sandbox seed ids; `known`'s own when not given. */
  suggestions?: readonly string[]
  /**
   * Names beside the suggested ids, and which id a pasted console link gives: usually the
   * field kind's `useIdSuggestions`, whose suggestions the field then offers.
   */
  known?: KnownIds & Partial<Pick<IdSuggestions, 'suggestions'>>
  error?: string | undefined
  hint?: ReactNode
  placeholder?: string
  disabled?: boolean
  /** Enter in the field (e.g. adds the id to a list) instead of submitting the form. */
  onEnter?: () => void
}

/** Marks a field whose text is a name several objects share: its form is not sent (WriteForm). */
export const AMBIGUOUS_NAME_ATTRIBUTE = 'data-ambiguous-name'

/**
 * An id input with its suggestions, checked as the user types (the owner passes the error). A
 * pasted link of the service's web console gives its id. A name the app has seen for exactly
 * one object of the field's kind becomes that object's id when the user leaves the field or
 * presses Enter (the field then shows the id, and the name under it); a name several objects
 * share is refused, naming their ids. Under the field: where such ids come from (lib/id-kinds).
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
  const reading = known ? readNameOrId(value, known.names) : ({ kind: 'id' } as const)
  const knownName = known?.names.get(value.trim())
  const where = known ? whereIdsComeFrom(known.kind) : null

  /** A unique name becomes its id; true when it did. */
  function resolveName(): boolean {
    if (reading.kind !== 'name') return false
    onChange(reading.id)
    return true
  }

  const shownError =
    reading.kind === 'ambiguous'
      ? ambiguousNameMessage(reading)
      : // A name about to become its id: the id's own check (a UUID…) does not apply to it.
        reading.kind === 'name'
        ? undefined
        : error
  const lines: ReactNode[] = [
    reading.kind === 'name' ? (
      <span key="name">
        “{reading.name}” is <code>{reading.id}</code>: leave the field or press Enter to use it.
      </span>
    ) : knownName !== undefined && knownName !== value.trim() ? (
      <span key="name">Known as “{knownName}”.</span>
    ) : null,
    hint ? <span key="hint">{hint}</span> : null,
    where ? <span key="where">{where}</span> : null,
  ].filter((line) => line !== null)

  return (
    <Field
      label={label}
      error={shownError}
      hint={lines.length === 0 ? undefined : <span className="id-field-hint">{lines}</span>}
    >
      {(control) => (
        <SuggestInput
          {...control}
          {...{ [AMBIGUOUS_NAME_ATTRIBUTE]: reading.kind === 'ambiguous' ? 'true' : undefined }}
          className="input input-mono"
          value={value}
          suggestions={suggestions ?? known?.suggestions ?? []}
          names={known?.names}
          idKind={known?.kind}
          onIdPasted={onChange}
          placeholder={placeholder}
          disabled={disabled}
          // Spaces inside a name are kept while typing ("media-library → Amsterdam"); the
          // ends are trimmed when the field is left.
          onChange={(event) => onChange(event.target.value.trimStart())}
          onBlur={() => {
            if (!resolveName() && value !== value.trim()) onChange(value.trim())
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return
            // The name becomes its id first; the next Enter sends (or adds) it.
            if (resolveName()) {
              event.preventDefault()
              return
            }
            if (!onEnter) return
            event.preventDefault()
            onEnter()
          }}
        />
      )}
    </Field>
  )
}
