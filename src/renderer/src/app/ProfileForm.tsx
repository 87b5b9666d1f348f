import { useEffect, useRef, useState, type FormEvent } from 'react'
import { toValidationIssues } from '../../../shared/api'
import {
  channels,
  PROFILE_COLORS,
  profileFieldsSchema,
  profileNetworkInput,
  type BridgeError,
  type CaCertificate,
  type Profile,
  type ProfileFields,
} from '../../../shared/bridge'
import { asBridgeError, bridge } from '../bridge'
import { fieldErrorsFrom, isConnectivityError } from '../lib/errors'
import { Button } from '../ui/Button'
import { ErrorBanner } from '../ui/ErrorBanner'
import { CheckboxField } from '../ui/CheckboxField'
import { TextField } from '../ui/TextField'
import { TrustCaContext, TrustCaOffer, untrustedServerOf } from '../ui/TrustCaOffer'
import { KeychainProblem } from './Keychain'
import { firstUnusedColor } from './profile-state'
import { useAppStore } from './store'
import {
  draftOf,
  EMPTY_NETWORK,
  networkInputOf,
  ProfileNetworkFields,
  withCas,
  type NetworkDraft,
} from './ProfileNetworkFields'
import { SessionOnlyCheckbox, TokenField, useSessionOnlyChoice } from './TokenEntry'
import './profile-form.css'

const COLOR_NAMES: Record<string, string> = {
  '#2563eb': 'Blue',
  '#16a34a': 'Green',
  '#d97706': 'Amber',
  '#dc2626': 'Red',
  '#7c3aed': 'Violet',
  '#0891b2': 'Cyan',
  '#db2777': 'Pink',
  '#4b5563': 'Grey',
}

const FIELD_NAMES = [
  'name',
  'baseUrl',
  'token',
  'color',
  'protected',
  'trustedCas',
  'proxy',
] as const
type FieldName = (typeof FIELD_NAMES)[number]

export interface ProfileSubmission {
  fields: ProfileFields
  /** Empty in edit mode: a new token goes through sign-in. */
  token: string
  sessionOnly: boolean
  /**
   * "Save anyway, check later": saved although the service cannot be reached, the token kept
   * unchecked (add mode only; a refusal is never saved).
   */
  checkLater?: boolean
  /** The profile's trusted CAs and proxy (absent for the embedded sandbox's profile). */
  network?: ReturnType<typeof networkInputOf>
}

interface ProfileFormProps {
  mode: 'add' | 'edit'
  initial?: Profile
  submitLabel: string
  /** Saves; throws (a BridgeCallError) to have the form show what went wrong. */
  onSubmit: (submission: ProfileSubmission) => Promise<void>
  onCancel?: () => void
  cancelLabel?: string
  /** Puts the cursor in the first field when the form appears (outside a dialog). */
  focusOnMount?: boolean
}

/**
 * Name, base URL, access token, colour and the protected flag: validated here with the same
 * schema the main process uses, then by the main process (which also checks the token with the
 * service). The token field is uncontrolled and cleared after use, so the token never sits in
 * React state or in a DOM attribute.
 */
export function ProfileForm({
  mode,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  cancelLabel = 'Cancel',
  focusOnMount = false,
}: ProfileFormProps) {
  const { vault, sessionOnly, setSessionOnly } = useSessionOnlyChoice()
  const tokenRef = useRef<HTMLInputElement>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const [name, setName] = useState(initial?.name ?? '')
  const [baseUrl, setBaseUrl] = useState(initial?.baseUrl ?? '')
  const profiles = useAppStore((s) => s.profiles)
  const [color, setColor] = useState<string>(
    () => initial?.color ?? firstUnusedColor(PROFILE_COLORS, profiles),
  )
  const [isProtected, setProtected] = useState(initial?.protected ?? false)
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({})
  const [formError, setFormError] = useState<BridgeError | null>(null)
  const [otherIssues, setOtherIssues] = useState<string[]>([])
  const [keychainError, setKeychainError] = useState<BridgeError | null>(null)
  const [busy, setBusy] = useState(false)
  const nameRef = useRef<HTMLInputElement>(null)
  // The embedded sandbox runs on this computer: never proxied, nothing to trust.
  const hasNetwork = initial?.kind !== 'sandbox'
  const [network, setNetwork] = useState<NetworkDraft>(EMPTY_NETWORK)
  const [networkError, setNetworkError] = useState<BridgeError | null>(null)
  // In edit mode the stored settings first: saving before they arrived would overwrite them.
  const [networkReady, setNetworkReady] = useState(mode === 'add')
  const profileId = mode === 'edit' ? initial?.id : undefined

  useEffect(() => {
    if (focusOnMount) nameRef.current?.focus()
  }, [focusOnMount])

  useEffect(() => {
    if (profileId === undefined || !hasNetwork) return
    let current = true
    bridge.call('profiles.network', { id: profileId }).then(
      (view) => {
        if (!current) return
        setNetwork(draftOf(view))
        setNetworkReady(true)
      },
      (thrown: unknown) => {
        if (current) setNetworkError(asBridgeError(thrown))
      },
    )
    return () => {
      current = false
    }
  }, [profileId, hasNetwork])

  const colors: string[] = PROFILE_COLORS.includes(color as (typeof PROFILE_COLORS)[number])
    ? [...PROFILE_COLORS]
    : [...PROFILE_COLORS, color]

  function focusFirstInvalid() {
    requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
    })
  }

  async function submit(
    forceSessionOnly: boolean,
    draft: NetworkDraft = network,
    checkLater = false,
  ) {
    const token = mode === 'add' ? (tokenRef.current?.value ?? '') : ''
    const useSessionOnly = forceSessionOnly || sessionOnly
    const fields = { name, baseUrl, color, protected: isProtected }
    const networkInput = hasNetwork && networkReady ? networkInputOf(draft) : undefined
    const parsed =
      mode === 'add'
        ? channels['profiles.add'].input.safeParse({
            ...fields,
            token,
            sessionOnly: useSessionOnly,
            checkLater,
            ...networkInput,
          })
        : profileFieldsSchema.extend(profileNetworkInput.shape).safeParse({
            ...fields,
            ...networkInput,
          })
    setFormError(null)
    setOtherIssues([])
    setKeychainError(null)
    if (!parsed.success) {
      const placed = fieldErrorsFrom(toValidationIssues(parsed.error), FIELD_NAMES)
      setFieldErrors(placed.fields)
      setOtherIssues(placed.other)
      focusFirstInvalid()
      return
    }
    setFieldErrors({})
    setBusy(true)
    try {
      await onSubmit({
        fields: {
          name: parsed.data.name,
          baseUrl: parsed.data.baseUrl,
          color: parsed.data.color,
          protected: parsed.data.protected,
        },
        token: token.trim(),
        sessionOnly: useSessionOnly,
        ...(checkLater ? { checkLater } : {}),
        ...(networkInput === undefined ? {} : { network: networkInput }),
      })
      if (tokenRef.current) tokenRef.current.value = ''
    } catch (thrown) {
      const error = asBridgeError(thrown)
      if (error.code === 'VALIDATION_ERROR') {
        const placed = fieldErrorsFrom(error.details, FIELD_NAMES)
        setFieldErrors(placed.fields)
        setOtherIssues(placed.other)
        if (Object.keys(placed.fields).length === 0) setFormError(error)
        focusFirstInvalid()
      } else if (error.code === 'KEYCHAIN_UNAVAILABLE') {
        setKeychainError(error)
      } else {
        setFormError(error)
      }
    } finally {
      setBusy(false)
    }
  }

  /** The user confirmed the offered CA: it joins the list, and the profile is tried again. */
  function trustOfferedCa(ca: CaCertificate) {
    const next = { ...network, trustedCas: withCas(network.trustedCas, [ca]) }
    setNetwork(next)
    void submit(false, next)
  }

  const untrusted = untrustedServerOf(formError)
  // Out of reach, not refused: the profile may be saved now and its token checked later.
  const canCheckLater = mode === 'add' && formError !== null && isConnectivityError(formError)

  function onFormSubmit(event: FormEvent) {
    event.preventDefault()
    void submit(false)
  }

  return (
    <form ref={formRef} className="form" onSubmit={onFormSubmit} noValidate aria-busy={busy}>
      <TextField
        label="Name"
        error={fieldErrors.name}
        hint="e.g. Production, Staging"
        ref={nameRef}
        type="text"
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <TextField
        label="Base URL"
        error={fieldErrors.baseUrl}
        hint="The service's address, e.g. https://ims.example.com"
        type="url"
        inputMode="url"
        spellCheck={false}
        value={baseUrl}
        onChange={(event) => setBaseUrl(event.target.value)}
      />
      {mode === 'add' ? (
        <TokenField
          label="Access token"
          error={fieldErrors.token}
          hint="Checked with the service before anything is saved; kept by Infradesk's main process, never shown again."
          inputRef={tokenRef}
        />
      ) : null}

      <fieldset
        className="field colors"
        aria-describedby={fieldErrors.color ? 'color-error' : undefined}
      >
        <legend className="field-label">Colour</legend>
        <div className="color-options">
          {colors.map((option) => (
            <label key={option} className="color-option" title={COLOR_NAMES[option] ?? option}>
              <input
                type="radio"
                name="profile-color"
                value={option}
                checked={color === option}
                onChange={() => setColor(option)}
                aria-label={COLOR_NAMES[option] ?? option}
              />
              <span
                className="color-swatch"
                style={{ backgroundColor: option }}
                aria-hidden="true"
              />
            </label>
          ))}
        </div>
        {fieldErrors.color ? (
          <div className="field-error" id="color-error">
            {fieldErrors.color}
          </div>
        ) : null}
      </fieldset>

      <CheckboxField
        checked={isProtected}
        onChange={setProtected}
        hint="Changes on a protected profile ask for an extra confirmation."
        error={fieldErrors.protected}
      >
        Protected environment (production)
      </CheckboxField>

      {hasNetwork && networkReady ? (
        <ProfileNetworkFields
          draft={network}
          onChange={setNetwork}
          errors={{ trustedCas: fieldErrors.trustedCas, proxy: fieldErrors.proxy }}
        />
      ) : null}
      {networkError ? (
        <ErrorBanner error={networkError} context="Could not read the proxy and CA settings" />
      ) : null}

      {mode === 'add' ? (
        <SessionOnlyCheckbox checked={sessionOnly} onChange={setSessionOnly}>
          Keep the token for this session only
        </SessionOnlyCheckbox>
      ) : null}

      {mode === 'add' ? (
        <KeychainProblem
          vault={vault}
          error={keychainError}
          busy={busy}
          onKeepForSession={keychainError ? () => void submit(true) : null}
        />
      ) : null}

      {otherIssues.length > 0 ? (
        <ul className="form-issues" role="alert">
          {otherIssues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      ) : null}
      {formError ? (
        // The offer below is for the profile in this form, not the active one.
        <TrustCaContext.Provider value={null}>
          <ErrorBanner error={formError} context="Nothing was saved" />
        </TrustCaContext.Provider>
      ) : null}
      {untrusted ? <TrustCaOffer server={untrusted} onTrust={trustOfferedCa} /> : null}
      {canCheckLater ? (
        <div className="check-later" role="group" aria-labelledby="check-later-text">
          <p id="check-later-text" className="field-hint">
            The token cannot be checked while the service is unreachable. Save the profile now and
            its token goes to {sessionOnly ? 'memory for this session' : 'the keychain'} unchecked;
            the profile shows as not verified until a Connect succeeds (Infradesk tries again when
            the service answers).
          </p>
          <Button onClick={() => void submit(false, network, true)} disabled={busy}>
            Save anyway, check later
          </Button>
        </div>
      ) : null}

      <div className="form-actions">
        {onCancel ? (
          <Button onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
        ) : null}
        <Button type="submit" variant="primary" busy={busy}>
          {busy && mode === 'add' ? 'Checking the token…' : submitLabel}
        </Button>
      </div>
    </form>
  )
}
