import { useState, type ReactNode, type Ref } from 'react'
import type { VaultStatus } from '../../../shared/bridge'
import { CheckboxField } from '../ui/CheckboxField'
import { TextField } from '../ui/TextField'
import { SESSION_ONLY_EXPLANATION, useVaultStatus } from './Keychain'

/*
 * The parts every form that takes an access token shares (add a profile, sign in again): the
 * token input itself and the "this session only" choice, with its default from the keychain.
 */

export interface SessionOnlyChoice {
  vault: VaultStatus | null
  sessionOnly: boolean
  setSessionOnly: (sessionOnly: boolean) => void
}

/** The keychain's state and whether the token is to be kept for this session only. */
export function useSessionOnlyChoice(): SessionOnlyChoice {
  const vault = useVaultStatus()
  const [choice, setSessionOnly] = useState<boolean | null>(null)
  // Without a keychain, session-only is the only way: offer it ticked (the user can see it).
  const sessionOnly = choice ?? (vault !== null && !vault.available)
  return { vault, sessionOnly, setSessionOnly }
}

interface TokenFieldProps {
  label: string
  hint: string
  error: string | undefined
  /** The token is read through this ref and cleared after use. */
  inputRef: Ref<HTMLInputElement>
  /** Marks the field as the one a dialog focuses when it opens. */
  dialogAutofocus?: boolean
}

/**
 * A password-style access token input. It is uncontrolled, so the token never sits in React
 * state or in a DOM attribute.
 */
export function TokenField({
  label,
  hint,
  error,
  inputRef,
  dialogAutofocus = false,
}: TokenFieldProps) {
  return (
    <TextField
      label={label}
      error={error}
      hint={hint}
      ref={inputRef}
      type="password"
      spellCheck={false}
      data-autofocus={dialogAutofocus ? true : undefined}
    />
  )
}

interface SessionOnlyCheckboxProps {
  checked: boolean
  onChange: (checked: boolean) => void
  /** The checkbox's label. */
  children: ReactNode
}

/** The "keep for this session only" checkbox, with what that means under it. */
export function SessionOnlyCheckbox({ checked, onChange, children }: SessionOnlyCheckboxProps) {
  return (
    <CheckboxField checked={checked} onChange={onChange} hint={SESSION_ONLY_EXPLANATION}>
      {children}
    </CheckboxField>
  )
}
