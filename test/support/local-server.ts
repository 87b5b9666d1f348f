import type { Server } from 'node:net'
import type { AddressInfo } from 'node:net'

/** A server of a test listening on a free loopback port. */
export interface ListeningServer {
  /** `http://127.0.0.1:<port>` (or https). */
  url: string
  port: number
  /** Ends the open (keep-alive) connections too, so that closing never waits on a client. */
  close(): Promise<void>
}

/** Listens on a free port of 127.0.0.1: a test's stand-in service, relay or recorder. */
export async function listenLocally(
  server: Server & { closeAllConnections?: () => void },
  protocol: 'http' | 'https' = 'http',
): Promise<ListeningServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `${protocol}://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve())
      }),
  }
}
