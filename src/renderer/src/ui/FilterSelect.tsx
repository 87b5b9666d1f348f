/*
 * One filter of a list screen: "any" (null) or one of its choices, named by its aria-label
 * (the filter bar has no visible labels). Activity's and Certificates' filters are these.
 */

export interface FilterChoice {
  value: string
  text: string
}

interface FilterSelectProps {
  label: string
  /** The first option, which filters nothing: "Any type". */
  any: string
  value: string | null | undefined
  choices: readonly FilterChoice[]
  onChange(value: string | null): void
}

export function FilterSelect({ label, any, value, choices, onChange }: FilterSelectProps) {
  return (
    <select
      className="input"
      aria-label={label}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value || null)}
    >
      <option value="">{any}</option>
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.text}
        </option>
      ))}
    </select>
  )
}
