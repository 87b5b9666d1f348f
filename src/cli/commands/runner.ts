import { setImmediate } from 'node:timers/promises'
import type { Command } from 'commander'
import type { ConnectionOptions } from '../session'
import { stopOnInterrupt } from '../interrupt'
import { DeskSession } from '../session'

/*
 * How every command runs: the desk opened for it (see ../session.ts), the profile resolved when
 * the command talks to the service, the desk closed again whatever happened. Errors go up to
 * main.ts, which prints the one-line reason and exits with the code of ../exit-codes.ts.
 */

/** The options every command takes, before or after its own words. */
export interface GlobalOptions extends ConnectionOptions {
  color?: boolean
}

export interface RunNeeds {
  /** The command talks to the service as `--profile` or `--url` (false: local only). */
  needsProfile: boolean
  /** `--url` is the command's own value (`profiles add`), not a service to sign in to. */
  ownsUrl?: boolean
}

export type CommandWork = (session: DeskSession, globals: GlobalOptions) => Promise<void>

export type CommandRunner = (command: Command, needs: RunNeeds, work: CommandWork) => Promise<void>

export function createRunner(version: string): CommandRunner {
  return async (command, needs, work) => {
    const globals = command.optsWithGlobals<GlobalOptions>()
    // Local commands always work on the app's folder; only service commands sign in with --url.
    const connection: ConnectionOptions =
      needs.needsProfile && needs.ownsUrl !== true
        ? globals
        : { dataDir: globals.dataDir, caFile: globals.caFile }
    const opening = DeskSession.open(connection, version)
    // Ctrl-C stops the work and closes the desk (a --url run's throwaway folder removed), from
    // before the desk opens: a signal then waits for the opening to end (a desk half open cannot
    // be closed), and no work starts.
    let interrupted = false
    const stopListening = stopOnInterrupt(async () => {
      interrupted = true
      const opened = await opening.catch(() => null)
      return opened === null ? [] : opened.interrupt()
    })
    let session: DeskSession
    try {
      session = await opening
    } catch (error) {
      await stopListening()
      throw error
    }
    try {
      // A signal that came while the desk opened (its files read synchronously) is delivered
      // at the event loop's next turn: taken before any work starts, not after it has ended.
      await setImmediate()
      if (interrupted) await stopListening()
      // Resolved first, so a missing profile or a refused token fails before any other work.
      if (needs.needsProfile) await session.profile()
      await work(session, globals)
    } finally {
      await stopListening()
      await session.close()
    }
  }
}
