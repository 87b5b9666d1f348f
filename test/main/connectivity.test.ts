import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, toBridgeError } from '../../src/main/api'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import { isConnectivityError } from '../../src/shared/bridge/connectivity'

/*
 * isConnectivityError (src/shared/bridge/connectivity.ts), the one test of "out of reach" that
 * main and the renderer share, against errors the service client really throws: a closed
 * port, a service that never answers, and a sandbox that answers but says no. Each is checked
 * as main catches it (a ServiceError) and as the renderer gets it (a BridgeError).
 */

let sandbox: RunningSandbox
/** A server that reads requests and never answers them. */
let silent: Server

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  silent = createServer(() => {
    // Never answers: the client's timeout ends the call.
  })
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
})

afterAll(async () => {
  await sandbox?.close()
  silent?.closeAllConnections()
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()))
})

function urlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = urlOf(server)
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return url
}

/** What `listSessions` threw when asked of `baseUrl` with `token`. */
async function failureOf(baseUrl: string, token: string, timeoutMs = 5_000): Promise<unknown> {
  const client = createServiceClient({ baseUrl, token, timeoutMs, retryDelayMs: 5 })
  try {
    await client.call('listSessions')
  } catch (error) {
    return error
  }
  throw new Error(`listSessions at ${baseUrl} succeeded`)
}

describe('isConnectivityError', () => {
  it('is true for a service nothing listens for (OFFLINE), thrown and bridged', async () => {
    const error = await failureOf(await closedPortUrl(), sandbox.tokens.admin)
    expect(error).toMatchObject({ code: 'OFFLINE' })
    expect(isConnectivityError(error)).toBe(true)
    expect(isConnectivityError(toBridgeError(error))).toBe(true)
  })

  it('is true for a service that never answers (TIMEOUT), thrown and bridged', async () => {
    const error = await failureOf(urlOf(silent), sandbox.tokens.admin, 200)
    expect(error).toMatchObject({ code: 'TIMEOUT' })
    expect(isConnectivityError(error)).toBe(true)
    expect(isConnectivityError(toBridgeError(error))).toBe(true)
  })

  it('is false for a service that answers and says no (a refused token)', async () => {
    const error = await failureOf(sandbox.url, 'not-a-token-the-sandbox-knows')
    expect(error).toMatchObject({ code: 'UNAUTHORIZED' })
    expect(isConnectivityError(error)).toBe(false)
    expect(isConnectivityError(toBridgeError(error))).toBe(false)
  })

  it('is false for what carries no such code: none, a system error, a bare value', () => {
    expect(isConnectivityError(null)).toBe(false)
    expect(isConnectivityError(undefined)).toBe(false)
    expect(isConnectivityError('OFFLINE')).toBe(false)
    expect(isConnectivityError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(
      false,
    )
  })
})
