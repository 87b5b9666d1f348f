import { createServer, request as httpRequest } from 'node:http'
import { listenLocally } from './local-server'

/**
 * A plain HTTP relay in front of a sandbox that records every request it passes on (method,
 * path, body), so a test can prove what reached the service, and what never did.
 */
export interface RecordingProxy {
  url: string
  received: { method: string; path: string; body: string }[]
  close(): Promise<void>
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target)
  const received: RecordingProxy['received'] = []
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const body = Buffer.concat(chunks)
      received.push({
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        body: body.toString('utf8'),
      })
      const relayed = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
        },
      )
      relayed.on('error', () => outgoing.destroy())
      relayed.end(body)
    })
  })
  const { url, close } = await listenLocally(server)
  return { url, received, close }
}
