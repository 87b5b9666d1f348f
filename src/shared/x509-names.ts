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
