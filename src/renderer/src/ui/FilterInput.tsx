/*
 * A box that narrows a list as it is typed in. It has no visible label: its accessible name is
 * also its placeholder unless the placeholder says it differently.
 */

interface FilterInputProps {
  /** The accessible name, e.g. "Search history". */
  label: string
  placeholder?: string
  value: string
  onChange(text: string): void
  /** "search" adds the browser's clear button. */
  type?: 'search'
  /** Classes beside "input". */
  className?: string
}

export function FilterInput({ label, placeholder = label, onChange, ...props }: FilterInputProps) {
  return (
    <input
      type={props.type}
      className={props.className ? `input ${props.className}` : 'input'}
      placeholder={placeholder}
      aria-label={label}
      value={props.value}
      onChange={(event) => onChange(event.target.value)}
    />
  )
}
