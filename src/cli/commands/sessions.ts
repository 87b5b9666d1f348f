import type { Command } from 'commander'
import type { Session } from '../../shared/api'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { CliError } from '../exit-codes'
import type { Column } from '../output'
import { note, writeJson, writeRows } from '../output'
import type { CommandRunner } from './runner'

/* `infradesk sessions list`: op 1 through the app's sessions list (its cache is updated too). */

/** The service's times are epoch seconds or milliseconds; shown as ISO 8601 either way. */
function isoTime(value: number): string {
  const ms = value < 100_000_000_000 ? value * 1000 : value
  return new Date(ms).toISOString()
}

const SESSION_COLUMNS: readonly Column<Session>[] = [
  { name: 'ID', value: (session) => session.id },
  { name: 'CURRENT', value: (session) => (session.isCurrent ? 'yes' : '') },
  { name: 'METHOD', value: (session) => session.authMethod },
  { name: 'IP', value: (session) => session.ipAddress },
  { name: 'LAST SEEN', value: (session) => isoTime(session.lastSeenAt) },
  { name: 'EXPIRES', value: (session) => isoTime(session.expiresAt) },
]

export function sessionCommands(program: Command, run: CommandRunner): void {
  const sessions = program.command('sessions').description('sign-in sessions of your account')
  sessions
    .command('list')
    .description('list the sessions of the signed-in account')
    .option('--json', "print the service's session objects as JSON")
    .action((options: { json?: boolean }, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        const profileId = await session.profileIdToUse()
        let listed
        try {
          listed = await session.call('sessions.refresh', { profileId })
        } catch (error) {
          const refusal = error instanceof CliError ? error.bridgeError : undefined
          if (refusal?.code !== APP_ERROR_CODES.BROWSER_SESSION_ONLY) throw error
          // A fact about API tokens, not a failure: said plainly, exit 0. Nothing goes to
          // stdout (not even `[]`), so no script reads "no sessions" into it.
          note(refusal.message)
          return
        }
        // Offline, the app shows the cached list; a script must learn the service was not reached.
        if (listed.error !== null) throw CliError.fromBridge(listed.error)
        if (options.json === true) writeJson(listed.items)
        else writeRows('table', SESSION_COLUMNS, listed.items)
      }),
    )
}
