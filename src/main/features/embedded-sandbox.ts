import type { RunningSandbox, SandboxOptions } from '../../sandbox'

/*
 * The local sandbox the app embeds ("Explore the local sandbox"): at most one, in this process.
 * It is loaded with a dynamic import, so a user who never explores it never pays for its start.
 */

export interface EmbeddedSandbox {
  /** The running sandbox, or null. */
  current(): RunningSandbox | null
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
  start(options: { port?: number; adminToken?: string }): Promise<RunningSandbox>
  stop(): Promise<void>
}

export type SandboxStarter = (options: SandboxOptions) => Promise<RunningSandbox>

async function loadStarter(): Promise<SandboxStarter> {
  const module = await import('../../sandbox')
  return module.startSandbox
}

export function createEmbeddedSandbox(starter?: SandboxStarter): EmbeddedSandbox {
  let running: RunningSandbox | null = null
  let pending: Promise<RunningSandbox> | null = null
  let held: Promise<unknown> = Promise.resolve()

  async function launch(options: { port?: number; adminToken?: string }) {
    const start = starter ?? (await loadStarter())
    const base: SandboxOptions = {
      host: '127.0.0.1',
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
