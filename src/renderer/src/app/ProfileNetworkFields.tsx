import { useRef, useState, type ChangeEvent } from 'react'
import type {
  BridgeError,
  CaCertificate,
  ProfileNetworkView,
  ProxyInput,
} from '../../../shared/bridge'
import { asBridgeError, bridge } from '../bridge'
import { Button } from '../ui/Button'
import { ChoiceCard } from '../ui/ChoiceCard'
import { TextField } from '../ui/TextField'
import { CaFacts } from '../ui/TrustCaOffer'
import './profile-network.css'

/*
 * A profile's connections in its form: the CA certificates it trusts beside the system's, and
 * its proxy. A PEM file is read in the page (as the certificate upload dialog does, so web mode
 * works too) and checked by main (`profiles.inspectCa`: a CA certificate, readable), which also
 * says what it is. The proxy password is typed here and goes to main, which keeps it in the
 * keychain; main never sends it back, only whether one is stored.
 */

export type ProxyMode = 'none' | 'system' | 'custom'

export interface NetworkDraft {
  trustedCas: CaCertificate[]
  proxyMode: ProxyMode
  proxyUrl: string
  proxyUsername: string
  /** Empty with `hasStoredPassword`: keep the stored password. */
  proxyPassword: string
  hasStoredPassword: boolean
  /** What the operating system's store gave (shown, never sent back); unknown for a new profile. */
  systemCas?: ProfileNetworkView['systemCas']
}

export const EMPTY_NETWORK: NetworkDraft = {
  trustedCas: [],
  proxyMode: 'system',
  proxyUrl: '',
  proxyUsername: '',
  proxyPassword: '',
  hasStoredPassword: false,
}

/** The draft for a profile's stored settings (edit mode). */
export function draftOf(view: ProfileNetworkView): NetworkDraft {
  const system = view.systemCas === undefined ? {} : { systemCas: view.systemCas }
  if (view.proxy.mode !== 'custom') {
    return { ...EMPTY_NETWORK, ...system, trustedCas: view.trustedCas, proxyMode: view.proxy.mode }
  }
  return {
    ...system,
    trustedCas: view.trustedCas,
    proxyMode: 'custom',
    proxyUrl: view.proxy.url,
    proxyUsername: view.proxy.username,
    proxyPassword: '',
    hasStoredPassword: view.proxy.hasPassword,
  }
}

/** What `profiles.add` / `profiles.update` take for the draft. */
export function networkInputOf(draft: NetworkDraft): {
  trustedCas: string[]
  proxy: ProxyInput
} {
  const trustedCas = draft.trustedCas.map((ca) => ca.pem)
  if (draft.proxyMode !== 'custom') return { trustedCas, proxy: { mode: draft.proxyMode } }
  const keepPassword = draft.proxyPassword === '' && draft.hasStoredPassword
  return {
    trustedCas,
    proxy: {
      mode: 'custom',
      url: draft.proxyUrl,
      username: draft.proxyUsername,
      ...(keepPassword ? {} : { password: draft.proxyPassword }),
    },
  }
}

/** Adds CA certificates to a list, once each (by SHA-256). */
export function withCas(list: CaCertificate[], added: CaCertificate[]): CaCertificate[] {
  const known = new Set(list.map((ca) => ca.fingerprint256))
  return [...list, ...added.filter((ca) => !known.has(ca.fingerprint256))]
}

interface ProfileNetworkFieldsProps {
  draft: NetworkDraft
  onChange: (draft: NetworkDraft) => void
  /** Main's errors on these fields (`trustedCas`, `proxy`). */
  errors: { trustedCas?: string | undefined; proxy?: string | undefined }
}

export function ProfileNetworkFields({ draft, onChange, errors }: ProfileNetworkFieldsProps) {
  const set = (patch: Partial<NetworkDraft>) => onChange({ ...draft, ...patch })
  // Folded while it holds the defaults (most profiles need none of it); open once it matters.
  const [userOpen, setUserOpen] = useState(false)
  const open =
    userOpen ||
    draft.trustedCas.length > 0 ||
    draft.proxyMode !== 'system' ||
    errors.trustedCas !== undefined ||
    errors.proxy !== undefined
  return (
    <details
      className="network-details"
      open={open}
      onToggle={(event) => setUserOpen(event.currentTarget.open)}
    >
      <summary className="field-label">Network: proxy and trusted CA certificates</summary>
      <TrustedCaList
        cas={draft.trustedCas}
        systemCas={draft.systemCas}
        error={errors.trustedCas}
        onChange={(trustedCas) => set({ trustedCas })}
      />
      <fieldset className="network-section">
        <legend className="field-label">Proxy</legend>
        <div className="proxy-modes" role="radiogroup" aria-label="Proxy">
          {PROXY_MODES.map((mode) => (
            <ChoiceCard
              key={mode.value}
              name="proxy-mode"
              value={mode.value}
              checked={draft.proxyMode === mode.value}
              onChoose={() => set({ proxyMode: mode.value })}
            >
              <span>
                {mode.label}
                <span className="field-hint"> — {mode.hint}</span>
              </span>
            </ChoiceCard>
          ))}
        </div>
        {draft.proxyMode === 'custom' ? (
          <>
            <TextField
              label="Proxy URL"
              error={errors.proxy}
              hint="e.g. http://proxy.example.com:3128"
              type="url"
              spellCheck={false}
              value={draft.proxyUrl}
              onChange={(event) => set({ proxyUrl: event.target.value })}
            />
            <div className="proxy-login">
              <TextField
                label="User"
                hint="Leave empty if the proxy needs no login"
                type="text"
                spellCheck={false}
                value={draft.proxyUsername}
                onChange={(event) => set({ proxyUsername: event.target.value })}
              />
              <TextField
                label="Password"
                hint={
                  draft.hasStoredPassword
                    ? 'Kept in the keychain; leave empty to keep it'
                    : 'Kept in the keychain, never in a file'
                }
                type="password"
                value={draft.proxyPassword}
                onChange={(event) => set({ proxyPassword: event.target.value })}
              />
            </div>
          </>
        ) : null}
      </fieldset>
    </details>
  )
}

const PROXY_MODES: { value: ProxyMode; label: string; hint: string }[] = [
  { value: 'system', label: 'From the system or environment', hint: 'HTTPS_PROXY, NO_PROXY…' },
  { value: 'none', label: 'No proxy', hint: 'connect directly' },
  { value: 'custom', label: 'This proxy', hint: 'for this profile only' },
]

function TrustedCaList({
  cas,
  systemCas,
  error,
  onChange,
}: {
  cas: CaCertificate[]
  systemCas: NetworkDraft['systemCas']
  error: string | undefined
  onChange: (cas: CaCertificate[]) => void
}) {
  const inputRef = useRef<HTMLInputElement>(null)
  const [readError, setReadError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function addFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    setReadError(null)
    if (file.size > 256 * 1024) {
      setReadError(`${file.name} is larger than 256 kB: not a CA certificate`)
      return
    }
    setBusy(true)
    try {
      const { certificates } = await bridge.call('profiles.inspectCa', { pem: await file.text() })
      onChange(withCas(cas, certificates))
    } catch (thrown) {
      setReadError(problemOf(asBridgeError(thrown)))
    } finally {
      setBusy(false)
    }
  }

  const problem = readError ?? error
  return (
    <fieldset className="network-section">
      <legend className="field-label">Trusted CA certificates</legend>
      <div className="field-hint">
        Trusted for this profile only, beside the system&rsquo;s certificate authorities (for a
        company&rsquo;s internal CA).
      </div>
      {systemCas === undefined ? null : (
        <div className="field-hint" data-testid="system-cas">
          {systemCas.problem === null
            ? `The operating system's store gives ${systemCas.count.toLocaleString('en-US')} certificate authorities; Node's bundled roots are trusted too.`
            : `The operating system's store gave none (${systemCas.problem}): only Node's bundled roots and the certificates below are trusted.`}
        </div>
      )}
      {systemCas?.environment?.file == null ? null : (
        <div className="field-hint" data-testid="environment-cas">
          {environmentCasText(systemCas.environment)}
        </div>
      )}
      {cas.length > 0 ? (
        <ul className="ca-list">
          {cas.map((ca) => (
            <li key={ca.fingerprint256} className="ca-item">
              <CaFacts ca={ca} />
              <Button
                size="small"
                aria-label={`Remove ${ca.subject}`}
                onClick={() => onChange(cas.filter((item) => item !== ca))}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <div>
        <input
          ref={inputRef}
          className="visually-hidden"
          type="file"
          accept=".pem,.crt,.cer,application/x-pem-file"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => void addFile(event)}
        />
        <Button size="small" busy={busy} onClick={() => inputRef.current?.click()}>
          Add PEM file…
        </Button>
      </div>
      {problem ? (
        <div className="field-error" role="alert">
          {problem}
        </div>
      ) : null}
    </fieldset>
  )
}

/** The field message of a refused file (main names the field), else the error's message. */
function problemOf(error: BridgeError): string {
  if (Array.isArray(error.details)) {
    const first: unknown = error.details[0]
    if (typeof first === 'object' && first !== null && 'message' in first) {
      return String((first as { message: unknown }).message)
    }
  }
  return error.message
}

/** What NODE_EXTRA_CA_CERTS added to every profile's trust, or why it added nothing. */
function environmentCasText(
  environment: NonNullable<NonNullable<NetworkDraft['systemCas']>['environment']>,
): string {
  const file = environment.file ?? ''
  return environment.problem === null
    ? `NODE_EXTRA_CA_CERTS (${file}) adds ${environment.count.toLocaleString('en-US')} certificate ${environment.count === 1 ? 'authority' : 'authorities'} to every profile.`
    : `NODE_EXTRA_CA_CERTS names ${file}, but adds nothing: ${environment.problem}.`
}
