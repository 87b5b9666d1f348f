import net from 'node:net'
import type { ProxyAddress } from './proxy'

// node:http as CommonJS, as web/host.ts takes it: an ES import builds the module's ES facade,
// whose lazy getters load Node's bundled undici (~40 ms of every start, measured).
const { STATUS_CODES } = process.getBuiltinModule('node:http')

/*
 * An HTTP CONNECT tunnel through a proxy: `CONNECT host:port HTTP/1.1`, the proxy's status
 * line, then the socket is the target's (TLS goes on top). Used by raw-http.ts (downloads) and
 * by the server-certificate probe; fetch's tunnels are undici's ProxyAgent's.
 */

/** A proxy said no (CONNECT or an absolute-form request answered other than 2xx). */
export class ProxyRefusedError extends Error {
  readonly code = 'ERR_PROXY_REFUSED'
  constructor(
    readonly proxy: string,
    readonly status: number,
    statusText?: string,
  ) {
    const text = statusText?.trim() || STATUS_CODES[status] || ''
    super(`The proxy at ${proxy} refused: ${status}${text === '' ? '' : ` ${text}`}`)
  }
}

/** The most a proxy's answer to CONNECT may hold before its blank line. */
const MAX_CONNECT_HEAD_BYTES = 16 * 1024

/**
 * A socket tunnelled to `host:port` through `proxy`. `authorization` is sent as
 * Proxy-Authorization. Rejects with ProxyRefusedError for a non-2xx answer, or with the
 * socket's error (connection refused: the proxy's address), or with the signal's reason.
 */
export function openTunnel(
  proxy: ProxyAddress,
  authorization: string | null,
  target: { host: string; port: number },
  signal?: AbortSignal,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const socket = net.connect({ host: proxy.host, port: proxy.port })
    let head = Buffer.alloc(0)
    const authority = net.isIPv6(target.host)
      ? `[${target.host}]:${target.port}`
      : `${target.host}:${target.port}`
    const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`]
    if (authorization !== null) lines.push(`Proxy-Authorization: ${authorization}`)
    socket.write(`${lines.join('\r\n')}\r\n\r\n`)

    const finish = (error: unknown) => {
      socket.off('data', onData)
      socket.off('error', finish)
      socket.off('end', onEnd)
      signal?.removeEventListener('abort', onAbort)
      if (error === null) return
      socket.destroy()
      reject(error)
    }
    const onAbort = () => finish(signal?.reason)
    const onEnd = () =>
      finish(Object.assign(new Error('The proxy closed the connection'), { code: 'ECONNRESET' }))
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end === -1) {
        if (head.length > MAX_CONNECT_HEAD_BYTES) {
          finish(
            Object.assign(new Error('The proxy answered CONNECT with something that is not HTTP'), {
              code: 'ERR_HTTP_MALFORMED',
            }),
          )
        }
        return
      }
      const status = /^HTTP\/1\.[01] (\d{3})(?: ([^\r\n]*))?/.exec(
        head.subarray(0, end).toString('latin1'),
      )
      if (status === null) {
        finish(
          Object.assign(new Error('The proxy answered CONNECT with something that is not HTTP'), {
            code: 'ERR_HTTP_MALFORMED',
          }),
        )
        return
      }
      const code = Number(status[1])
      if (code < 200 || code > 299) {
        finish(new ProxyRefusedError(proxy.origin, code, status[2]))
        return
      }
      finish(null)
      socket.pause()
      // The target speaks after the client (TLS) or not at all yet: nothing should follow the
      // head, but whatever did belongs to the tunnel.
      const rest = head.subarray(end + 4)
      if (rest.length > 0) socket.unshift(rest)
      resolve(socket)
    }
    socket.on('data', onData)
    socket.on('error', finish)
    socket.on('end', onEnd)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
