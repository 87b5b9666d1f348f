import { X509Certificate } from 'node:crypto'
import net from 'node:net'
import tls from 'node:tls'
import type { DetailedPeerCertificate } from 'node:tls'
import { openTunnel } from './tunnel'
import type { ProxyAddress } from './proxy'
import { isSelfSigned, viewOf } from './trust'
import type { CaCertificateView } from './trust'

/*
 * What a server presents, read when its certificate was refused for an unknown issuer, so the
 * error can name it (subject, issuer, SHA-256) and offer to trust its CA. A separate TLS
 * connection with verification off, used for nothing but reading the certificates: no
 * request is sent on it and it is closed at once.
 */

/** The verification failures that mean "issued by a CA this computer does not trust". */
export const UNKNOWN_ISSUER_CODES: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
])

export interface ServerChain {
  /** The server's own certificate. */
  certificate: Omit<CaCertificateView, 'pem'>
  /**
   * The top of the chain as the server sent it, when it is a self-signed CA certificate (one
   * that can be trusted as an anchor); null when the server does not send its CA.
   */
  ca: CaCertificateView | null
}

const PROBE_TIMEOUT_MS = 10_000

export async function describeServerChain(
  url: URL,
  route: { proxy: ProxyAddress | null; proxyAuthorization: string | null },
): Promise<ServerChain> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = Number(url.port || 443)
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS)
  const socket =
    route.proxy === null
      ? undefined
      : await openTunnel(route.proxy, route.proxyAuthorization, { host, port }, signal)
  const peer = await new Promise<DetailedPeerCertificate>((resolve, reject) => {
    const connection = tls.connect({
      host,
      port,
      ...(socket === undefined ? {} : { socket }),
      servername: net.isIP(host) === 0 ? host : undefined,
      // Only to read what the server presents; nothing is sent or trusted on this connection.
      rejectUnauthorized: false,
    })
    const onAbort = () => connection.destroy(signal.reason as Error)
    signal.addEventListener('abort', onAbort, { once: true })
    connection.once('secureConnect', () => {
      resolve(connection.getPeerCertificate(true))
      signal.removeEventListener('abort', onAbort)
      connection.destroy()
    })
    connection.once('error', (error) => {
      signal.removeEventListener('abort', onAbort)
      reject(error)
    })
  })
  const chain = chainOf(peer)
  const leaf = chain[0]
  if (leaf === undefined) throw new Error('The server presented no certificate')
  const top = chain.at(-1) ?? leaf
  const { pem: _pem, ...certificate } = viewOf(leaf)
  return { certificate, ca: top.ca && isSelfSigned(top) ? viewOf(top) : null }
}

/** The certificates as the server sent them, leaf first (Node links them by issuerCertificate). */
function chainOf(peer: DetailedPeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = []
  const seen = new Set<string>()
  let current: DetailedPeerCertificate | undefined = peer
  while (current?.raw !== undefined && !seen.has(current.fingerprint256)) {
    seen.add(current.fingerprint256)
    chain.push(new X509Certificate(current.raw))
    current = current.issuerCertificate
  }
  return chain
}
