import type { InputHTMLAttributes, ReactNode, Ref } from 'react'
import { Field } from './Field'

/** Field ties the input to its label, hint and error: these attributes are its to set. */
type FieldOwned = 'id' | 'className' | 'aria-invalid' | 'aria-describedby'

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, FieldOwned> {
  label: ReactNode
  error?: string | undefined
  hint?: ReactNode
  ref?: Ref<HTMLInputElement>
}

/**
 * The common case of Field: one text input (class "input"), with the browser's autofill off,
 * as everywhere in the app (ids, URLs and secrets are not the browser's to remember).
 */
export function TextField({ label, error, hint, ref, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <input autoComplete="off" {...input} {...control} ref={ref} className="input" />
      )}
    </Field>
  )
}
