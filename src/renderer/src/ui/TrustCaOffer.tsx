import { createContext, useContext, useState } from 'react'
import type { BridgeError, CaCertificate } from '../../../shared/bridge'
import { Button } from './Button'
import { useNow } from './useNow'
import './trust-ca-offer.css'

/*
 * A TLS error for an unknown issuer names the server's certificate (main: src/main/net/errors.ts)
 * and, when the server sent its CA, offers "Trust this CA for this profile", confirmed only
 * after the CA's SHA-256 fingerprint was shown, for the user to compare with what their IT
 * published. The profile form shows it on its own error; every other screen's ErrorBanner shows
 * it through TrustCaContext, which the shell provides for the active profile.
 */

/** Adds a CA to the active profile's trusted ones; provided by the shell. */
export type TrustCa = (ca: CaCertificate) => Promise<void>
export const TrustCaContext = createContext<TrustCa | null>(null)

/** Subject, expiry and SHA-256 of one CA certificate. */
export function CaFacts({ ca }: { ca: CaCertificate }) {
  const now = useNow()
  return (
    <div className="ca-facts">
      <strong>{ca.subject}</strong>
      <span className="field-hint">
        Expires {new Date(ca.validTo).toLocaleDateString()}
        {Date.parse(ca.validTo) < now ? ' (expired)' : ''}
      </span>
      <span className="ca-fingerprint">SHA-256 {ca.fingerprint256}</span>
    </div>
  )
}

/** What a TLS error says about the server's certificate and CA (src/main/net/errors.ts). */
export interface UntrustedServer {
  certificate: { subject: string; issuer: string; fingerprint256: string }
  ca: CaCertificate | null
}

export function untrustedServerOf(error: BridgeError | null): UntrustedServer | null {
  if (error?.code !== 'TLS_ERROR') return null
  const details = error.details
  if (typeof details !== 'object' || details === null || !('certificate' in details)) return null
  return details as UntrustedServer
}

/**
 * The offer a TLS error for an unknown issuer carries: the server's certificate named, and,
 * when the server sent its CA, "Trust this CA for this profile" — confirmed only after the
 * CA's SHA-256 fingerprint was shown, for the user to compare with what their IT published.
 */
export function TrustCaOffer({
  server,
  onTrust,
}: {
  server: UntrustedServer
  onTrust: (ca: CaCertificate) => void
}) {
  const [confirming, setConfirming] = useState(false)
  const { certificate, ca } = server
  return (
    <div className="trust-offer" role="group" aria-label="Untrusted certificate">
      <div>
        The server&rsquo;s certificate <strong>{certificate.subject}</strong> was issued by{' '}
        <strong>{certificate.issuer}</strong>, which this computer does not trust.
        <div className="ca-fingerprint">SHA-256 {certificate.fingerprint256}</div>
      </div>
      {ca === null ? (
        <div className="field-hint">
          The server does not send its CA certificate: ask for the CA&rsquo;s PEM file and add it
          under &ldquo;Trusted CA certificates&rdquo;.
        </div>
      ) : confirming ? (
        <>
          <div>
            Trust this certificate authority for this profile? Compare its fingerprint first:
          </div>
          <CaFacts ca={ca} />
          <div className="actions">
            <Button variant="primary" onClick={() => onTrust(ca)}>
              Yes, trust this CA
            </Button>
            <Button onClick={() => setConfirming(false)}>Cancel</Button>
          </div>
        </>
      ) : (
        <div className="actions">
          <Button onClick={() => setConfirming(true)}>Trust this CA for this profile…</Button>
        </div>
      )}
    </div>
  )
}

/**
 * The offer inside an error banner on any screen: trusting goes through the shell's handler (the
 * active profile's list grows by this CA), then the screen's own Retry tries again.
 */
export function TrustCaFromError({ error }: { error: BridgeError }) {
  const trust = useContext(TrustCaContext)
  const [outcome, setOutcome] = useState<'trusted' | { failed: string } | null>(null)
  const server = untrustedServerOf(error)
  if (trust === null || server === null) return null
  if (outcome === 'trusted') {
    return (
      <div className="trust-offer" role="status">
        This certificate authority is now trusted for this profile: try again.
      </div>
    )
  }
  return (
    <>
      <TrustCaOffer
        server={server}
        onTrust={(ca) => {
          trust(ca).then(
            () => setOutcome('trusted'),
            (caught: unknown) =>
              setOutcome({ failed: caught instanceof Error ? caught.message : String(caught) }),
          )
        }}
      />
      {outcome !== null ? (
        <div className="field-error" role="alert">
          Could not trust it: {outcome.failed}
        </div>
      ) : null}
    </>
  )
}
