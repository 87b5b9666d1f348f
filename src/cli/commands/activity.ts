import type { Command } from 'commander'
import { Option } from 'commander'
import type { ActivityEntry } from '../../shared/bridge'
import type { ActivityFilter } from '../../shared/bridge/channels/activity'
import type { Column } from '../output'
import { note, writeJson, writeRows } from '../output'
import { parseSince } from '../parse'
import type { DeskSession } from '../session'
import type { CommandRunner, GlobalOptions } from './runner'

/*
 * `infradesk activity export`: the app's local activity log (every call that changed
 * something, the CLI's own included), oldest first. `--profile` keeps one profile's entries,
 * `--url` those of the profiles of that service; neither: every profile's. Local only: no call
 * to the service, so it works offline.
 */

/** The most entries the log hands out at once (activity.list's bound): read page by page. */
const LOG_LIMIT = 1000

const ACTIVITY_COLUMNS: readonly Column<ActivityEntry>[] = [
  { name: 'at', value: (entry) => new Date(entry.at).toISOString() },
  { name: 'profile', value: (entry) => entry.profileName },
  { name: 'operation', value: (entry) => entry.operation },
  { name: 'target', value: (entry) => entry.targetId },
  { name: 'outcome', value: (entry) => entry.outcome },
  { name: 'errorCode', value: (entry) => entry.errorCode },
  { name: 'message', value: (entry) => entry.message },
]

export function activityCommands(program: Command, run: CommandRunner): void {
  const activity = program.command('activity').description('the local activity log')
  activity
    .command('export')
    .description('print the activity log as CSV or JSON, oldest first')
    .option('--since <when>', 'from this time on: ISO 8601, or a span back from now (7d, 12h)')
    .addOption(new Option('--csv', 'CSV with a header row').conflicts('json'))
    .option('--json', 'an array of entries (at: epoch ms)')
    .action((options: { since?: string; csv?: boolean; json?: boolean }, command: Command) =>
      run(command, { needsProfile: false }, async (session, globals) => {
        const since = options.since === undefined ? null : parseSince(options.since)
        const entries = (await entriesFor(session, globals, since))
          .filter((entry) => since === null || entry.at >= since)
          .sort((a, b) => a.at - b.at || a.id - b.id)
        if (options.json === true) writeJson(entries)
        else writeRows('csv', ACTIVITY_COLUMNS, entries)
      }),
    )
}

async function entriesFor(
  session: DeskSession,
  globals: GlobalOptions,
  since: number | null,
): Promise<ActivityEntry[]> {
  const from = since === null || since < 0 ? {} : { from: since }
  if (globals.profile !== undefined) {
    const profile = await session.findProfile(globals.profile)
    return everyEntry(session, { ...from, profileId: profile.id })
  }
  const all = await everyEntry(session, from)
  if (globals.url === undefined) return all
  const { profiles } = await session.call('profiles.list', {})
  const wanted = new Set(
    profiles
      .filter((profile) => sameService(profile.baseUrl, globals.url ?? ''))
      .map((profile) => profile.id),
  )
  return all.filter((entry) => wanted.has(entry.profileId))
}

/**
 * Every entry the filter lets through, however long the log: newest first a page at a time,
 * each page ending before the last one's oldest millisecond ends (`to` is exclusive), so entries
 * sharing that millisecond are read again and kept once (by id).
 */
async function everyEntry(session: DeskSession, filter: ActivityFilter): Promise<ActivityEntry[]> {
  const byId = new Map<number, ActivityEntry>()
  let to: number | undefined
  for (;;) {
    const page = await session.call('activity.list', {
      ...filter,
      ...(to === undefined ? {} : { to }),
      limit: LOG_LIMIT,
    })
    const known = byId.size
    for (const entry of page) byId.set(entry.id, entry)
    const oldest = page.at(-1)
    if (page.length < LOG_LIMIT || oldest === undefined) break
    if (byId.size === known) {
      // A whole page in one millisecond: no `to` reaches past it. Said, never silent.
      note(
        `More than ${LOG_LIMIT} entries share the instant ${new Date(oldest.at).toISOString()}: ` +
          'the entries before it are not printed',
      )
      break
    }
    to = oldest.at + 1
  }
  return [...byId.values()]
}

function sameService(a: string, b: string): boolean {
  const normal = (url: string) => url.trim().replace(/\/+$/, '').toLowerCase()
  return normal(a) === normal(b)
}
