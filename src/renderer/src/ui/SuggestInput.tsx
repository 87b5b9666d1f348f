import { useId, type ClipboardEvent, type InputHTMLAttributes } from 'react'
import { idFromPastedLink } from '../lib/console-url'

interface SuggestInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'list'> {
  /** Offered in the browser's own suggestion list as the user types. */
  suggestions: readonly string[]
  /**
   * Names of suggested ids, shown beside each id in the list; the browser matches what is
   * typed against the name too, so an object can be found by its name.
   */
  names?: ReadonlyMap<string, string> | undefined
  /**
   * Given, a pasted link of the service's web console puts its id in the field instead of the
   * link: the id of `idKind` (a proxy route's link pasted into the host field gives the host).
   */
  onIdPasted?: ((id: string) => void) | undefined
  idKind?: string | null | undefined
}

/** A text input with a list of suggestions (recent ids, known objects, sandbox seed ids). */
export function SuggestInput({
  suggestions,
  names,
  onIdPasted,
  idKind = null,
  className,
  onPaste,
  ...props
}: SuggestInputProps) {
  const listId = useId()

  function pasted(event: ClipboardEvent<HTMLInputElement>) {
    onPaste?.(event)
    if (event.defaultPrevented || !onIdPasted) return
    const id = idFromPastedLink(event.clipboardData.getData('text'), idKind)
    if (id === null) return
    event.preventDefault()
    onIdPasted(id)
  }

  return (
    <>
      <input
        {...props}
        onPaste={pasted}
        className={className ?? 'input'}
        list={suggestions.length > 0 ? listId : undefined}
        autoComplete="off"
        spellCheck={false}
      />
      {suggestions.length > 0 ? (
        <datalist id={listId}>
          {suggestions.map((value) => (
            <option key={value} value={value} label={suggestionLabel(value, names)} />
          ))}
        </datalist>
      ) : null}
    </>
  )
}

/** "name · id" when the id has a known name; the id alone otherwise. */
function suggestionLabel(value: string, names: ReadonlyMap<string, string> | undefined) {
  const name = names?.get(value)
  return name === undefined || name === value ? value : `${name} · ${value}`
}
