import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/*
 * A long-running program of this repository (the web-mode app, the sandbox) started under tsx
 * (a .ts source) or plain Node (a built .js file), considered up when it prints its one ready
 * line `<PREFIX> {json}`. The e2e fixtures and the contract tests' sandboxes
 * (test/support/sandbox-process.ts) start theirs here.
 */

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))

const READY_TIMEOUT_MS = 90_000
const STOP_TIMEOUT_MS = 10_000
const LOG_TAIL_CHARS = 20_000

export interface RunningChild<Ready> {
  ready: Ready
  /** The process id: the program itself for a built .js file; tsx's launcher for a .ts source. */
  pid: number
  /** The tail of everything the child wrote, for failure messages. */
  output(): string
  /** SIGTERM, then SIGKILL if it has not exited after a while; resolves once it is gone. */
  stop(): Promise<void>
}

export async function startTsxChild<Schema extends z.ZodType>(options: {
  script: string
  args: string[]
  readyPrefix: string
  readySchema: Schema
  env?: NodeJS.ProcessEnv
}): Promise<RunningChild<z.output<Schema>>> {
  // TypeScript runs under tsx; a built file (out/main/web.js) runs as users run it.
  const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx')
  const program = options.script.endsWith('.ts') ? [tsx, options.script] : [options.script]
  // process.execPath: the same Node that runs the tests, whatever PATH says.
  const child: ChildProcess = spawn(process.execPath, [...program, ...options.args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    // DBUS_SESSION_BUS_ADDRESS (from scripts/with-keyring.mjs) passes through: the keychain.
    env: { ...process.env, FORCE_COLOR: '0', ...options.env },
  })
  let log = ''
  const remember = (chunk: string) => {
    log = (log + chunk).slice(-LOG_TAIL_CHARS)
  }
  let exited = false
  // If the test process ends without stop() (a crash, a killed worker), take the child along.
  const killChild = () => child.kill('SIGKILL')
  process.once('exit', killChild)
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true
      process.off('exit', killChild)
      resolve()
    })
  })

  const stop = async () => {
    if (exited) return
    child.kill('SIGTERM')
    const killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    await exitedPromise
    clearTimeout(killTimer)
  }

  const ready = await new Promise<z.output<Schema>>((resolve, reject) => {
    let buffer = ''
    let settled = false
    const fail = (message: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`${options.script}: ${message}\n--- output ---\n${log}`))
    }
    const timer = setTimeout(
      () => fail(`no ${options.readyPrefix} line within ${READY_TIMEOUT_MS} ms`),
      READY_TIMEOUT_MS,
    )
    // Both streams are drained for the child's whole life, or a full pipe would block it.
    child.stderr?.setEncoding('utf8').on('data', remember)
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      remember(chunk)
      if (settled) return
      buffer += chunk
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      const line = lines.find((candidate) => candidate.startsWith(`${options.readyPrefix} `))
      if (line === undefined) return
      let json: unknown
      try {
        json = JSON.parse(line.slice(options.readyPrefix.length + 1))
      } catch {
        json = undefined
      }
      const parsed = options.readySchema.safeParse(json)
      if (!parsed.success) {
        return fail(`malformed ready line: ${line}\n${z.prettifyError(parsed.error)}`)
      }
      settled = true
      clearTimeout(timer)
      resolve(parsed.data)
    })
    child.once('error', (error) => fail(`could not start: ${error.message}`))
    child.once('exit', (code, signal) => fail(`exited before it was ready (${code ?? signal})`))
  })

  return { ready, pid: child.pid ?? 0, output: () => log, stop }
}
