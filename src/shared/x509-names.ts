/*
 * The names of an X.509 certificate as Node's X509Certificate renders them, turned into what the
 * app shows. Main (upload checks, the details pane) and the sandbox (its own certificates) read
 * the same strings, so they read them here; the strings come from node:crypto, this file needs
 * nothing of Node.
 */

/** Node prints names one attribute a line (`C=..\nO=..\nCN=..`); shown as `C=.., O=.., CN=..`. */
export function oneLineName(name: string): string {
  return name.split('\n').filter(Boolean).join(', ')
}

/** One rendered SAN entry: a kind, a colon, a value (quoted as a JSON string when it must be). */
const SAN_ENTRY = /\s*([^:,]+):("(?:[^"\\]|\\.)*"|[^,]*)\s*(?:,|$)/gy

/**
 * Node renders SANs as `DNS:a, IP Address:1.2.3.4, email:x`, quoting a value that holds a
 * comma or quote as a JSON string. DNS names and IP addresses are returned bare, any other
 * kind keeps its prefix so it cannot be mistaken for a host name.
 */
export function subjectAltNamesOf(rendered: string | undefined): string[] {
  if (!rendered) return []
  const names: string[] = []
  for (const match of rendered.matchAll(SAN_ENTRY)) {
    const kind = match[1] ?? ''
    const rawValue = match[2] ?? ''
    const value = rawValue.startsWith('"') ? (JSON.parse(rawValue) as string) : rawValue
    names.push(kind === 'DNS' || kind === 'IP Address' ? value : `${kind}:${value}`)
  }
  return names
}

/** The public key facts node:crypto's KeyObject gives (this file needs nothing of Node). */
export interface PublicKeyFacts {
  asymmetricKeyType?: string | undefined
  asymmetricKeyDetails?: { modulusLength?: number | undefined; namedCurve?: string | undefined }
}

/**
 * How a key's algorithm is spelled: main shows Node's own curve and type names (`EC
 * prime256v1`, `ED25519`); the sandbox spells them as the service does (`EC P-256`, `Ed25519`).
 */
export interface KeyAlgorithmSpelling {
  curves?: Readonly<Record<string, string>>
  types?: Readonly<Record<string, string>>
}

/** A key's algorithm in words: `RSA 2048`, `EC <curve>`, else its type. */
export function keyAlgorithmName(key: PublicKeyFacts, spelling: KeyAlgorithmSpelling = {}): string {
  const details = key.asymmetricKeyDetails ?? {}
  const type = key.asymmetricKeyType ?? 'unknown'
  if (type === 'rsa' || type === 'rsa-pss') return `RSA ${details.modulusLength ?? ''}`.trim()
  if (type === 'ec') {
    const curve = details.namedCurve ?? ''
    return `EC ${spelling.curves?.[curve] ?? curve}`.trim()
  }
  return spelling.types?.[type] ?? type.toUpperCase()
}
