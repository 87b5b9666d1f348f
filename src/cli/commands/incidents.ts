import type { Command } from 'commander'
import { Option } from 'commander'
import { readIncident } from '../../shared/status-page'
import type { IncidentReading } from '../../shared/status-page'
import { CliError } from '../exit-codes'
import type { Column } from '../output'
import { note, writeJson, writeRows } from '../output'
import type { CommandRunner } from './runner'

/*
 * `infradesk incidents list`: the incidents the status page shows (open ones, then those resolved
 * lately), through the app's own refresh of the Status page (`statusPage.refresh`: op 21 read,
 * split and written to the cache, so the app shows the same list next). A service that cannot be
 * reached fails the command as `certs list` and `sessions list` do (exit 6, nothing on stdout):
 * the app would show its cached list under the offline banner, but a script must not take an
 * old list for the current one. The preview's field names are the service's to choose: they are
 * read as the Status page reads them (shared/status-page.ts); `--json` prints them as they came.
 */

/** A time of the service's as ISO 8601; empty when it sent none. */
const isoTime = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

const COLUMNS: readonly Column<IncidentReading>[] = [
  { name: 'ID', value: (incident) => incident.id },
  { name: 'TITLE', value: (incident) => incident.title },
  // The Status page's word: the service's own, else whether it is still open.
  {
    name: 'STATUS',
    value: (incident) => incident.status.text ?? (incident.open ? 'open' : 'resolved'),
  },
  { name: 'IMPACT', value: (incident) => incident.impact },
  { name: 'STARTED', value: (incident) => isoTime(incident.startedAt) },
  { name: 'RESOLVED', value: (incident) => isoTime(incident.resolvedAt) },
]

export function incidentCommands(program: Command, run: CommandRunner): void {
  const incidents = program.command('incidents').description('status page incidents')
  incidents
    .command('list')
    .description(
      'list the incidents the status page shows (open ones first, then those resolved lately)',
    )
    .addOption(new Option('--json', "an array of the service's incident objects").conflicts('csv'))
    .option('--csv', 'CSV with a header row')
    .action((options: { json?: boolean; csv?: boolean }, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        const state = await session.call('statusPage.refresh', {
          profileId: await session.profileIdToUse(),
        })
        // Offline, the refresh answers the cached list with the error: the command fails.
        if (state.error !== null) throw CliError.fromBridge(state.error)
        if (options.json === true) {
          writeJson(state.items)
          return
        }
        writeRows(
          options.csv === true ? 'csv' : 'table',
          COLUMNS,
          state.items.map((item) => readIncident(item)),
        )
        if (state.items.length === 0 && options.csv !== true) {
          note('The status page shows no incidents')
        }
      }),
    )
}
