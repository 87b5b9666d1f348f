import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { InvalidArgumentError, Option } from 'commander'
import { EXPORT_FORMATS } from '../../shared/api'
import type { ExportFormat } from '../../shared/api'
import type { CertificateRow, FormatAvailability, ListCompleteness } from '../../shared/bridge'
import { formatAvailability } from '../../shared/bridge'
import { expiringDays } from '../../shared/bridge/channels/overview'
import { daysLeft, endsWithin, notAfterMs } from '../../shared/certificate-expiry'
import { fetchAllPages } from '../../main/features/certificates'
import type { CertificateCacheEntry } from '../../main/cache/certificates'
import { CliError, EXIT } from '../exit-codes'
import type { Column } from '../output'
import { note, writeJson, writeRows } from '../output'
import type { DeskSession } from '../session'
import type { CommandRunner } from './runner'

/*
 * `infradesk certs list` walks op 16's pages with the app's own walk (fetchAllPages: it knows
 * when a list is whole) over the desk's `service.call`; `--json` prints the service's objects
 * as they came. `certs export` is the app's `certificates.export`: the same atomic writer,
 * passphrase checks and transfer log, written to `--out` instead of a dialog's choice. Which
 * formats a certificate has, and why not the others (a real deployment exports no ACME or
 * uploaded certificate's key), is the app's formatAvailability: `certs formats` prints it, and
 * an export of a format it refuses fails with that reason before anything is asked.
 */

const CERT_COLUMNS: readonly Column<CertificateRow>[] = [
  { name: 'ID', value: (row) => row.id },
  { name: 'NAME', value: (row) => row.name },
  { name: 'TYPE', value: (row) => row.type },
  { name: 'STATUS', value: (row) => row.status },
  { name: 'COMMON NAME', value: (row) => row.commonName },
  { name: 'NOT AFTER', value: (row) => row.notAfter },
  { name: 'FOLDER', value: (row) => row.folderPath.join('/') },
]

interface ListOptions {
  expiring?: number
  search?: string
  system?: boolean
  json?: boolean
  csv?: boolean
}

/**
 * `--expiring DAYS`: the app's Expiring list of this profile, row for row. Every certificate
 * (system ones too, as the app's list has them) that ends before DAYS days from now, expired
 * ones included, soonest first; undated ones are not in it (certificate-expiry.ts).
 */
export function expiringWithin(
  entries: readonly CertificateCacheEntry[],
  days: number,
  now: number = Date.now(),
): CertificateCacheEntry[] {
  const ends = new Map<CertificateCacheEntry, number>()
  for (const entry of entries) {
    const end = notAfterMs(entry.row.notAfter)
    if (end !== null && endsWithin(end, now, days)) ends.set(entry, end)
  }
  // The app's order: by end, then by id (its list adds the profile, one here).
  return [...ends.keys()].sort(
    (a, b) =>
      (ends.get(a) ?? 0) - (ends.get(b) ?? 0) ||
      (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0),
  )
}

/** The days box's range, the bridge contract's own (1 to 3650): the same bound as the app's. */
export function parseExpiringDays(value: string): number {
  const text = value.trim()
  const parsed = expiringDays.safeParse(/^\d+$/.test(text) ? Number(text) : Number.NaN)
  if (!parsed.success) {
    throw new InvalidArgumentError(
      `expected whole days from ${expiringDays.minValue} to ${expiringDays.maxValue}`,
    )
  }
  return parsed.data
}

/** The listing's columns with --expiring: DAYS LEFT first, as the app's list says it. */
function expiringColumns(now: number): readonly Column<CertificateRow>[] {
  return [
    {
      name: 'DAYS LEFT',
      numeric: true,
      value: (row) => {
        const end = notAfterMs(row.notAfter)
        return end === null ? null : daysLeft(end, now)
      },
    },
    ...CERT_COLUMNS,
  ]
}

/** The certificates the walk got, and its note when they are not the whole list. */
interface Listed {
  entries: CertificateCacheEntry[]
  completeness: ListCompleteness | null
}

async function listAll(session: DeskSession, options: ListOptions, now: number): Promise<Listed> {
  const profileId = await session.profileIdToUse()
  const filter = {
    ...(options.search === undefined ? {} : { search: options.search }),
    // The app's Expiring list holds system certificates too: so does --expiring.
    showSystem: options.system === true || options.expiring !== undefined,
  }
  const { entries, completeness } = await fetchAllPages(filter, async (query) => {
    const answer = await session.call('service.call', {
      profileId,
      operation: 'listCertificates',
      query,
    })
    return answer as { data: unknown[]; meta?: Record<string, unknown> }
  })
  return {
    entries:
      options.expiring === undefined ? entries : expiringWithin(entries, options.expiring, now),
    completeness,
  }
}

/**
 * A part must not pass for the whole list in a script, nor one bad item hide the rest: the
 * rows it has are printed first, then this says on stderr what is left out and why (exit 7).
 */
function refuseIncomplete(completeness: ListCompleteness | null, printed: number): void {
  if (completeness === null) return
  const rows = `${printed.toLocaleString('en-US')} ${printed === 1 ? 'row' : 'rows'}`
  throw new CliError(
    `The list is incomplete (${rows} printed): ${completeness.message}`,
    EXIT.badAnswer,
  )
}

/**
 * The certificate as the list sent it, from the desk's cache; when this profile's cache lacks
 * it (a first run), the list is read once so that the export knows how to ask for it (a real
 * deployment's op 12 takes an internal certificate's PKI id, not its SSL id).
 */
async function listedItem(
  session: DeskSession,
  profileId: string,
  id: string,
): Promise<Record<string, unknown> | null> {
  const cached = await session.call('certificates.details', { profileId, id, readPem: false })
  if (cached.item !== null) return cached.item
  await session.call('certificates.refresh', { profileId, filter: { showSystem: true } })
  return (await session.call('certificates.details', { profileId, id, readPem: false })).item
}

/**
 * The certificate `given` names, by id or by name (as the list shows it), and as the list sent
 * it. A user copies a name from `certs list` as often as an id: a name is taken when exactly one
 * certificate has it; several are named with their ids, none is a not-found that says so.
 */
async function certificateNamed(
  session: DeskSession,
  profileId: string,
  given: string,
): Promise<{ id: string; item: Record<string, unknown> }> {
  const byId = await listedItem(session, profileId, given)
  if (byId !== null) return { id: given, item: byId }
  // listedItem read the whole list (system ones too) into the cache: the names are there.
  const cached = await session.call('certificates.cached', {
    profileId,
    filter: { showSystem: true },
  })
  const named = cached.rows.filter((row) => row.name === given)
  const [only] = named
  if (only === undefined) {
    throw new CliError(
      `No certificate with the id or name "${given}" in the list (see \`infradesk certs list\`)`,
      EXIT.notFound,
    )
  }
  if (named.length > 1) {
    const which = named.map((row) => `${row.id} (${row.folderPath.join('/') || 'no folder'})`)
    throw CliError.usage(
      `${named.length} certificates are named "${given}": give the id of one (${which.join(', ')})`,
    )
  }
  const item = await listedItem(session, profileId, only.id)
  if (item === null) throw new CliError(`No certificate ${only.id} in the list`, EXIT.notFound)
  return { id: only.id, item }
}

const FORMAT_COLUMNS: readonly Column<FormatAvailability & { format: ExportFormat }>[] = [
  { name: 'FORMAT', value: (entry) => entry.format },
  { name: 'AVAILABILITY', value: (entry) => availabilityWords(entry) },
]

function availabilityWords(availability: FormatAvailability): string {
  if (!availability.available) return `unavailable: ${availability.reason}`
  if (availability.via === 'list') return 'available (written from the PEM the list carries)'
  return `available (exported by the service as certificate ${availability.id})`
}

const CERTIFICATE_ARGUMENT = 'the certificate: its id, or its name when no other has it'

export function certCommands(program: Command, run: CommandRunner): void {
  const certs = program.command('certs').description('SSL certificates')

  certs
    .command('list')
    .description(
      'list certificates (every page the service has; a list that is not whole prints the ' +
        'rows it has, says on stderr what is left out and exits 7)',
    )
    .option(
      '--expiring <days>',
      "the app's Expiring list: those ending within DAYS (1 to 3650) days, expired and " +
        'system ones included, soonest first, with a DAYS LEFT column',
      parseExpiringDays,
    )
    .option('--search <text>', "the service's own search")
    .option('--system', 'include system certificates (--expiring always does)')
    .addOption(
      new Option('--json', "an array of the service's certificate objects").conflicts('csv'),
    )
    .option('--csv', 'CSV with a header row')
    .action((options: ListOptions, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        const now = Date.now()
        const { entries, completeness } = await listAll(session, options, now)
        if (options.json === true) writeJson(entries.map((entry) => entry.item))
        else
          writeRows(
            options.csv === true ? 'csv' : 'table',
            options.expiring === undefined ? CERT_COLUMNS : expiringColumns(now),
            entries.map((entry) => entry.row),
          )
        refuseIncomplete(completeness, entries.length)
      }),
    )

  certs
    .command('export')
    .description('export one certificate to a file (written atomically, mode 0600)')
    .argument('<certificate>', CERTIFICATE_ARGUMENT)
    .addOption(
      new Option('--format <format>', 'the export format')
        .choices([...EXPORT_FORMATS])
        .makeOptionMandatory(),
    )
    .requiredOption('--out <file>', 'where to write it (replaced when it exists)')
    .option('--passphrase-file <file>', 'the passphrase, first line of FILE (pkcs12, jks, keys)')
    .option('--json', 'print path, size and SHA-256 as JSON')
    .action(
      (
        id: string,
        options: { format: ExportFormat; out: string; passphraseFile?: string; json?: boolean },
        command: Command,
      ) =>
        run(command, { needsProfile: true }, async (session) => {
          const passphrase = await readPassphrase(options.passphraseFile)
          const profileId = await session.profileIdToUse()
          // Read first: the export follows the listed certificate (and refuses with the reason).
          const { id: certificateId } = await certificateNamed(session, profileId, id)
          session.saveNextTo(options.out)
          const saved = await session.call('certificates.export', {
            profileId,
            id: certificateId,
            format: options.format,
            ...(passphrase === undefined ? {} : { passphrase }),
          })
          if (saved === null) throw new CliError('Nothing was written', EXIT.other)
          if (options.json === true) writeJson(saved)
          else note(`Saved ${saved.path} (${saved.size} bytes, SHA-256 ${saved.sha256})`)
        }),
    )

  formatsCommand(certs, run)
}

/** `certs formats <id>`: each export format of the certificate, available or why not. */
function formatsCommand(certs: Command, run: CommandRunner): void {
  certs
    .command('formats')
    .description('the export formats of one certificate: available, or why not')
    .argument('<certificate>', CERTIFICATE_ARGUMENT)
    .option('--json', 'an array of {format, available, via?, id?, reason?}')
    .action((given: string, options: { json?: boolean }, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        const { item } = await certificateNamed(session, await session.profileIdToUse(), given)
        const formats = EXPORT_FORMATS.map((format) => ({
          format,
          ...formatAvailability(item, format),
        }))
        if (options.json === true) {
          writeJson(formats)
          return
        }
        writeRows('table', FORMAT_COLUMNS, formats)
      }),
    )
}

/** The passphrase is the file's first line: a file keeps it out of argv and shell history. */
async function readPassphrase(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw CliError.usage(`Cannot read the passphrase file ${file}: ${(error as Error).message}`)
  })
  return text.split(/\r?\n/, 1)[0] ?? ''
}
