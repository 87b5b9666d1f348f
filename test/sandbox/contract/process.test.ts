import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { callOperation, startSandboxProcess } from '../../support/sandbox-process'
import { expectError, expectSuccess } from '../../support/answers'
import type { SandboxProcess } from '../../support/sandbox-process'

/*
 * The command line of `npm run sandbox` (docs/ARCHITECTURE-NOTES.md, "The sandbox"): scripts
 * depend on it.
 */

const started: SandboxProcess[] = []

async function start(args: string[] = []): Promise<SandboxProcess> {
  const sandbox = await startSandboxProcess(args)
  started.push(sandbox)
  return sandbox
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()))
})

/** A port nobody listens on right now (the OS picks it; it is released before use). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

describe('npm run sandbox', () => {
  it('--port 0: the ready line names the real port, and it answers there', async () => {
    const sandbox = await start(['--port', '0'])
    const url = new URL(sandbox.url)
    expect(Number(url.port)).toBeGreaterThan(0)
    expect(url.hostname).toBe('127.0.0.1')
    expectSuccess('listSessions', await callOperation(sandbox, 'listSessions'))
    // Exactly one ready line.
    expect(sandbox.output().match(/SANDBOX_READY /g)).toHaveLength(1)
  })

  it('two sandboxes run side by side, each with its own port and tokens', async () => {
    const [first, second] = await Promise.all([start(), start()])
    if (!first || !second) throw new Error('both sandboxes must start')
    expect(first.url).not.toBe(second.url)
    expect(first.tokens.admin).not.toBe(second.tokens.admin)
    expect(first.tokens.viewer).not.toBe(second.tokens.viewer)
    // Tokens not given are random: long, and not the same for both roles.
    expect(first.tokens.admin).toMatch(/^\S{16,}$/)
    expect(first.tokens.admin).not.toBe(first.tokens.viewer)

    expectSuccess('listSessions', await callOperation(first, 'listSessions'))
    expectSuccess('listSessions', await callOperation(second, 'listSessions'))
    // Each refuses the other's tokens.
    for (const token of [second.tokens.admin, second.tokens.viewer]) {
      expectError(await callOperation(first, 'listSessions', { token }), 'UNAUTHORIZED')
    }
    for (const token of [first.tokens.admin, first.tokens.viewer]) {
      expectError(await callOperation(second, 'listSessions', { token }), 'UNAUTHORIZED')
    }
    // Their state is separate: a logout on one leaves the other alone.
    expectSuccess('logout', await callOperation(first, 'logout'))
    expectError(await callOperation(first, 'listSessions'), 'UNAUTHORIZED')
    expectSuccess('listSessions', await callOperation(second, 'listSessions'))
  })

  it('honours --admin-token and --viewer-token', async () => {
    const admin = 'contract-admin-token-0123456789'
    const viewer = 'contract-viewer-token-0123456789'
    const sandbox = await start(['--admin-token', admin, '--viewer-token', viewer])
    expect(sandbox.tokens).toEqual({ admin, viewer })
    expectSuccess('listSessions', await callOperation(sandbox, 'listSessions', { token: admin }))
    // The viewer token really is the viewer: refused a write.
    const response = await callOperation(sandbox, 'resolveIncident', {
      params: { id: sandbox.seed.incidents.open[0] as string },
      token: viewer,
    })
    expectError(response, 'FORBIDDEN')
    // A reset restores the given tokens, not random ones.
    expectSuccess('logout', await callOperation(sandbox, 'logout', { token: admin }))
    await sandbox.reset()
    expectSuccess('listSessions', await callOperation(sandbox, 'listSessions', { token: admin }))
  })

  it('honours --port and --host', async () => {
    const port = await freePort()
    const sandbox = await start(['--port', String(port), '--host', '127.0.0.1'])
    expect(sandbox.url).toBe(`http://127.0.0.1:${port}`)
    expectSuccess('listSessions', await callOperation(sandbox, 'listSessions'))
  })

  it('refuses a port that is not a number instead of guessing', async () => {
    await expect(startSandboxProcess(['--port', 'eighty'])).rejects.toThrow(/exited|ready/)
  })

  it('stops on SIGTERM and frees its port', async () => {
    const sandbox = await startSandboxProcess()
    await sandbox.stop()
    await expect(fetch(`${sandbox.url}/auth/me/sessions`)).rejects.toThrow()
  })
})
