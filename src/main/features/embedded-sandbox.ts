import type { SandboxFlavor, SandboxOptions, SeedIds } from '../../sandbox'

/*
 * The local sandbox the app embeds ("Explore the local sandbox"): at most one, in a process of
 * its own (src/main/sandbox-process). Its PostgreSQL is PGlite, which runs a statement
 * synchronously: in this process, `select pg_sleep(12)` froze every bridge call and Cancel for
 * 12 s. Out of it, a slow statement stalls the sandbox only, and Cancel answers at once. The
 * launcher is loaded with a dynamic import, so a user who never explores never pays for it.
 */

/**
 * A running sandbox as the app uses it: `startSandbox`'s RunningSandbox (in-process, which
 * tests may inject) fits, and so does the sandbox process, whose seed is asked over IPC.
 */
export interface EmbeddedRunning {
  url: string
  tokens: { admin: string; viewer: string }
  seed(): SeedIds | Promise<SeedIds>
  reset(): Promise<void>
  /** The admin token works again after a logout; the sandbox's data stays as it is. */
  reinstateAdmin(): void | Promise<void>
  close(): Promise<void>
  /** Resolves when a sandbox process has ended (a crash too): it is then forgotten. */
  exited?: Promise<void>
}

export interface EmbeddedSandbox {
  /** The running sandbox, or null. */
  current(): EmbeddedRunning | null
  /** Resolves once any start under way, or held work, has finished (succeeded or not). */
  settled(): Promise<void>
  /**
   * Makes settled() wait for `work` as well: the restart at launch reads the keychain before it
   * starts anything, and a call for the sandbox profile must not slip in between.
   */
  hold(work: Promise<unknown>): void
  /**
   * Starts the sandbox, or returns the running one. `port` is tried first; when it is taken, any
   * free port is used instead (the caller compares the URL with what it stored).
   */
  start(options: { port?: number; adminToken?: string }): Promise<EmbeddedRunning>
  stop(): Promise<void>
}

export type SandboxStarter = (options: SandboxOptions) => Promise<EmbeddedRunning>

/** The default: the sandbox in its own process (forked, or Electron's utility process). */
async function loadStarter(): Promise<SandboxStarter> {
  const { startSandboxProcess } = await import('../sandbox-process/launch')
  return (options) => startSandboxProcess(options)
}

/**
 * `flavor`: which personality the embedded sandbox answers as (`npm run web -- --sandbox
 * --flavor gateway` explores the real deployment's rules); the default one unless asked.
 */
export function createEmbeddedSandbox(
  starter?: SandboxStarter,
  flavor: SandboxFlavor = 'default',
): EmbeddedSandbox {
  let running: EmbeddedRunning | null = null
  let pending: Promise<EmbeddedRunning> | null = null
  let held: Promise<unknown> = Promise.resolve()

  async function launch(options: { port?: number; adminToken?: string }) {
    const start = starter ?? (await loadStarter())
    const base: SandboxOptions = {
      host: '127.0.0.1',
      ...(flavor === 'default' ? {} : { flavor }),
      ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    }
    try {
      return await start({ ...base, port: options.port ?? 0 })
    } catch (error) {
      const taken = (error as { code?: unknown } | null)?.code === 'EADDRINUSE'
      if (!taken || !options.port) throw error
      return start({ ...base, port: 0 })
    }
  }

  return {
    current: () => running,
    async settled() {
      await held
      await pending?.catch(() => undefined)
    },
    hold(work) {
      held = Promise.allSettled([held, work])
    },
    start(options) {
      if (running) return Promise.resolve(running)
      pending ??= launch(options)
        .then((sandbox) => {
          running = sandbox
          // A process that died (killed by the OS, a crash) is started afresh by the next
          // "Explore", instead of leaving a profile pointing at a port nobody listens on.
          void sandbox.exited?.then(() => {
            if (running === sandbox) running = null
          })
          return sandbox
        })
        .finally(() => {
          pending = null
        })
      return pending
    },
    async stop() {
      await pending?.catch(() => undefined)
      const sandbox = running
      running = null
      await sandbox?.close()
    },
  }
}

/** The port of a sandbox profile's base URL, or undefined when it names none. */
export function portOf(baseUrl: string): number | undefined {
  try {
    const port = Number(new URL(baseUrl).port)
    return Number.isInteger(port) && port > 0 ? port : undefined
  } catch {
    return undefined
  }
}
