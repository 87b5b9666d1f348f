import type { ReactNode } from 'react'
import './forms.css'

interface CheckboxFieldProps {
  checked: boolean
  onChange: (checked: boolean) => void
  /** What ticking it means, under it. */
  hint: ReactNode
  error?: string | undefined
  /** The checkbox's label. */
  children: ReactNode
}

/** A checkbox with its label, what ticking it means under it, and its error if any. */
export function CheckboxField({ checked, onChange, hint, error, children }: CheckboxFieldProps) {
  return (
    <div className="field">
      <Checkbox checked={checked} onChange={onChange}>
        {children}
      </Checkbox>
      <div className="field-hint">{hint}</div>
      {error ? <div className="field-error">{error}</div> : null}
    </div>
  )
}

/** A checkbox and its label (the screen's own class beside "checkbox"). */
export function Checkbox({
  checked,
  onChange,
  className,
  children,
}: Pick<CheckboxFieldProps, 'checked' | 'onChange' | 'children'> & { className?: string }) {
  return (
    <label className={className ? `checkbox ${className}` : 'checkbox'}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {children}
    </label>
  )
}
