import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { SeedIds } from '../../sandbox'
import { isHostMessage } from './protocol'
import type { HostError, HostMessage, HostMethod, HostRequest, HostStartOptions } from './protocol'

/*
 * The app's side of the embedded sandbox's process (host.ts). The sandbox answers HTTP from
 * there, so a statement that keeps its PostgreSQL busy for minutes stalls that process only:
 * the app's event loop stays free and a cancelled request is answered at once.
 *
 * How the process is started is a seam (SandboxLauncher): plain Node forks it (web mode, tests,
 * benches); the Electron shell sets a launcher that uses a utility process instead, because the
 * packaged app turns off the RunAsNode fuse that child_process.fork relies on there.
 */

/** A started sandbox process, whatever started it. */
export interface SandboxChild {
  readonly pid: number | undefined
  send(message: HostRequest): void
  onMessage(listener: (message: unknown) => void): void
  /** Called once, when the process has ended (for whatever reason). */
  onExit(listener: (code: number | null) => void): void
  /** Ends the process now. */
  kill(): void
}

export interface HostEntry {
  /** The module the process runs. */
  modulePath: string
  /** Node options it needs (tsx's loader when the entry is TypeScript). */
  execArgv: string[]
}

export type SandboxLauncher = (entry: HostEntry) => SandboxChild

/** The sandbox as the app holds it: what `startSandbox` returns, with `seed()` asked over IPC. */
export interface SandboxProcess {
  /** The sandbox's process id. */
  pid: number | undefined
  url: string
  tokens: { admin: string; viewer: string }
  seed(): Promise<SeedIds>
  reset(): Promise<void>
  reinstateAdmin(): Promise<void>
  /** Ends the process; resolves once it has exited. */
  close(): Promise<void>
  /** Resolves when the process has ended, closed or not (a crash included). */
  exited: Promise<void>
}

/** Seeding the PKI and the data takes seconds; a process silent for this long is stuck. */
const START_TIMEOUT_MS = 120_000
/** The launcher's kill is a signal; this is how long we wait to see the exit. */
const EXIT_WAIT_MS = 5_000

/** Node's fork: the sandbox is the child's only job; it writes nothing on stdout. */
export const forkSandboxLauncher: SandboxLauncher = (entry) => {
  const child = fork(entry.modulePath, [], {
    execArgv: entry.execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'json',
  })
  // If the app ends without closing the sandbox (an uncaught error, process.exit), take it
  // along; the child also exits by itself when the IPC channel closes.
  const killChild = () => child.kill('SIGKILL')
  process.once('exit', killChild)
  return {
    pid: child.pid,
    send: (message) => {
      if (child.connected) child.send(message)
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => {
      child.once('exit', (code) => {
        process.off('exit', killChild)
        listener(code)
      })
    },
    // SIGKILL: a sandbox busy in a statement would only see a handled signal after it.
    kill: () => child.kill('SIGKILL'),
  }
}

let launcher: SandboxLauncher = forkSandboxLauncher

/** The Electron shell sets its utility-process launcher here at start. */
export function setSandboxLauncher(next: SandboxLauncher): void {
  launcher = next
}

/**
 * Where the host module is: beside this file when run from source (tsx, vitest); in the build,
 * `out/main/sandbox-host.js` (its own input in electron.vite.config.ts), one folder above the
 * chunk this code was bundled into.
 */
export function hostEntry(moduleUrl: string = import.meta.url): HostEntry {
  const here = fileURLToPath(moduleUrl)
  const folder = path.dirname(here)
  if (here.endsWith('.ts')) {
    const tsx = createRequire(moduleUrl).resolve('tsx')
    return {
      modulePath: path.join(folder, 'host.ts'),
      execArgv: ['--import', pathToFileURL(tsx).href],
    }
  }
  for (const candidate of [folder, path.dirname(folder)]) {
    const modulePath = path.join(candidate, 'sandbox-host.js')
    if (existsSync(modulePath)) return { modulePath, execArgv: [] }
  }
  throw new Error(`The sandbox's program (sandbox-host.js) is missing beside ${folder}`)
}

/** The sandbox's start error, named as in-process (SandboxStartError), with its code. */
class SandboxProcessError extends Error {
  readonly code: string | undefined

  constructor(error: HostError) {
    super(error.message)
    this.name = error.name
    this.code = error.code
  }
}

/** Starts the sandbox in a process of its own; resolves once it listens with its seed ready. */
export async function startSandboxProcess(
  options: HostStartOptions,
  launch: SandboxLauncher = launcher,
): Promise<SandboxProcess> {
  const child = launch(hostEntry())
  const calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  let nextId = 1
  let ended = false
  let exitCode: number | null = null
  let onReady: (message: HostMessage) => void = () => undefined
  let onGone: () => void = () => undefined

  const exited = new Promise<void>((resolve) => {
    child.onExit((code) => {
      ended = true
      exitCode = code
      const gone = new Error(`The local sandbox's process ended (exit code ${String(code)})`)
      for (const pending of calls.values()) pending.reject(gone)
      calls.clear()
      onGone()
      resolve()
    })
  })

  child.onMessage((message) => {
    if (!isHostMessage(message)) return
    if (message.type !== 'reply') {
      onReady(message)
      return
    }
    const pending = calls.get(message.id)
    calls.delete(message.id)
    if (message.ok) pending?.resolve(message.value)
    else pending?.reject(new SandboxProcessError(message.error))
  })

  const ready = await new Promise<Extract<HostMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill()
      reject(
        new SandboxProcessError({
          name: 'SandboxStartError',
          message: 'The sandbox did not start in time',
        }),
      )
    }, START_TIMEOUT_MS)
    onReady = (message) => {
      clearTimeout(timer)
      if (message.type === 'ready') resolve(message)
      else if (message.type === 'failed') reject(new SandboxProcessError(message.error))
    }
    onGone = () => {
      clearTimeout(timer)
      reject(
        new SandboxProcessError({
          name: 'SandboxStartError',
          message: `The sandbox's process ended before it was ready (exit code ${String(exitCode)})`,
        }),
      )
    }
    child.send({ type: 'start', options })
  })
  onGone = () => undefined

  function call(method: HostMethod): Promise<unknown> {
    if (ended) {
      return Promise.reject(new Error("The local sandbox's process has ended"))
    }
    const id = nextId++
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve, reject })
      child.send({ type: 'call', id, method })
    })
  }

  let closing: Promise<void> | null = null
  return {
    pid: child.pid,
    url: ready.url,
    tokens: ready.tokens,
    seed: async () => (await call('seed')) as SeedIds,
    reset: async () => {
      await call('reset')
    },
    reinstateAdmin: async () => {
      await call('reinstateAdmin')
    },
    close() {
      closing ??= (async () => {
        if (ended) return
        child.kill()
        const timer = setTimeout(() => child.kill(), EXIT_WAIT_MS)
        await exited
        clearTimeout(timer)
      })()
      return closing
    },
    exited,
  }
}
