import type { ServerResponse } from 'node:http'

/** A short plain-text answer (an error, a refusal), never cached. */
export function sendText(response: ServerResponse, status: number, text: string) {
  const bytes = Buffer.from(`${text}\n`, 'utf8')
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': bytes.length,
    'Cache-Control': 'no-store',
  })
  response.end(bytes)
}
