import type { Command } from 'commander'
import type { KnownObject } from '../../shared/bridge/channels/known-objects'
import type { Column } from '../output'
import { note, writeJson, writeRows } from '../output'
import type { CommandRunner } from './runner'

/*
 * `infradesk databases list`: the databases this profile's answers named, with their ids, so
 * `infradesk sql --db ID` has an id to take. The service has no operation that lists databases:
 * these are the app's known objects (a rotation's answer names its database, engine and node),
 * read from the app's cache, without a call to the service.
 */

/** The most the app's known objects give in one read. */
const LIMIT = 100

const COLUMNS: readonly Column<KnownObject>[] = [
  { name: 'NAME', value: (database) => database.name },
  { name: 'ID', value: (database) => database.id },
  { name: 'ENGINE', value: (database) => database.fields['engine'] ?? null },
  { name: 'NODE', value: (database) => database.nodeId },
  { name: 'SEEN', value: (database) => new Date(database.seenAt).toISOString() },
]

export const NO_DATABASES_KNOWN =
  'No database is known on this profile yet. The service cannot list databases: the app ' +
  "learns one from an answer that names it (a certificate rotation's), and its id is in the " +
  "address of the database's page in the service's web console."

export function databaseCommands(program: Command, run: CommandRunner): void {
  const databases = program.command('databases').description('databases the app knows of')
  databases
    .command('list')
    .description(
      'names and ids of the databases the app has seen on the profile (from its cache: the service cannot list them)',
    )
    .option('--json', 'print them as JSON (name, id, engine, node, when seen)')
    .option('--csv', 'print them as CSV')
    .action((options: { json?: boolean; csv?: boolean }, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        const found = await session.call('knownObjects.search', {
          profileId: await session.profileIdToUse(),
          kind: 'database',
          text: '',
          limit: LIMIT,
        })
        const sorted = [...found].sort(byName)
        if (options.json === true) {
          writeJson(
            sorted.map((database) => ({
              name: database.name,
              id: database.id,
              engine: database.fields['engine'] ?? null,
              nodeId: database.nodeId,
              seenAt: new Date(database.seenAt).toISOString(),
            })),
          )
        } else if (sorted.length > 0 || options.csv === true) {
          writeRows(options.csv === true ? 'csv' : 'table', COLUMNS, sorted)
        }
        if (sorted.length === 0) note(NO_DATABASES_KNOWN)
        else if (sorted.length === LIMIT) note(`The ${LIMIT} seen most recently`)
      }),
    )
}

/** By name (unnamed last), then id: a person looks a database up by its name. */
function byName(a: KnownObject, b: KnownObject): number {
  if (a.name === null || b.name === null) {
    return a.name === b.name ? a.id.localeCompare(b.id) : a.name === null ? 1 : -1
  }
  return a.name.localeCompare(b.name) || a.id.localeCompare(b.id)
}
