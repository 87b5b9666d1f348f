import { useId, type InputHTMLAttributes } from 'react'

interface SuggestInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'list'> {
  /** Offered in the browser's own suggestion list as the user types. */
  suggestions: readonly string[]
}

/** A text input with a list of suggestions (recent ids, sandbox seed ids). */
export function SuggestInput({ suggestions, className, ...props }: SuggestInputProps) {
  const listId = useId()
  return (
    <>
      <input
        {...props}
        className={className ?? 'input'}
        list={suggestions.length > 0 ? listId : undefined}
        autoComplete="off"
        spellCheck={false}
      />
      {suggestions.length > 0 ? (
        <datalist id={listId}>
          {suggestions.map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      ) : null}
    </>
  )
}
