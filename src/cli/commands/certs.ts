import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { Option } from 'commander'
import { EXPORT_FORMATS } from '../../shared/api'
import type { ExportFormat } from '../../shared/api'
import type { CertificateRow, FormatAvailability } from '../../shared/bridge'
import { formatAvailability } from '../../shared/bridge'
import { fetchAllPages } from '../../main/features/certificates'
import type { CertificateCacheEntry } from '../../main/cache/certificates'
import { CliError, EXIT } from '../exit-codes'
import type { Column } from '../output'
import { note, writeJson, writeRows } from '../output'
import { parseNonNegativeInt } from '../parse'
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

const DAY_MS = 86_400_000

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

/** Certificates whose notAfter lies between now and `days` days from now (expired ones excluded). */
export function expiringWithin(
  entries: readonly CertificateCacheEntry[],
  days: number,
  now: number = Date.now(),
): CertificateCacheEntry[] {
  const until = now + days * DAY_MS
  return entries.filter((entry) => {
    if (entry.row.notAfter === null) return false
    const at = Date.parse(entry.row.notAfter)
    return at >= now && at <= until
  })
}

async function listAll(
  session: DeskSession,
  options: ListOptions,
): Promise<CertificateCacheEntry[]> {
  const profileId = await session.profileIdToUse()
  const filter = {
    ...(options.search === undefined ? {} : { search: options.search }),
    showSystem: options.system === true,
  }
  const { entries, completeness } = await fetchAllPages(filter, async (query) => {
    const answer = await session.call('service.call', {
      profileId,
      operation: 'listCertificates',
      query,
    })
    return answer as { data: unknown[]; meta?: Record<string, unknown> }
  })
  // A part must not pass for the whole list in a script: said on stderr, and exit 7 below.
  if (completeness !== null) {
    throw new CliError(`The list is incomplete: ${completeness.message}`, EXIT.badAnswer)
  }
  return options.expiring === undefined ? entries : expiringWithin(entries, options.expiring)
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

const FORMAT_COLUMNS: readonly Column<FormatAvailability & { format: ExportFormat }>[] = [
  { name: 'FORMAT', value: (entry) => entry.format },
  { name: 'AVAILABILITY', value: (entry) => availabilityWords(entry) },
]

function availabilityWords(availability: FormatAvailability): string {
  if (!availability.available) return `unavailable: ${availability.reason}`
  if (availability.via === 'list') return 'available (written from the PEM the list carries)'
  return `available (exported by the service as certificate ${availability.id})`
}

export function certCommands(program: Command, run: CommandRunner): void {
  const certs = program.command('certs').description('SSL certificates')

  certs
    .command('list')
    .description('list certificates (every page of op 16)')
    .option(
      '--expiring <days>',
      'only those expiring within DAYS days from now',
      parseNonNegativeInt,
    )
    .option('--search <text>', "the service's own search")
    .option('--system', 'include system certificates')
    .addOption(
      new Option('--json', "an array of the service's certificate objects").conflicts('csv'),
    )
    .option('--csv', 'CSV with a header row')
    .action((options: ListOptions, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        const entries = await listAll(session, options)
        if (options.json === true) writeJson(entries.map((entry) => entry.item))
        else
          writeRows(
            options.csv === true ? 'csv' : 'table',
            CERT_COLUMNS,
            entries.map((entry) => entry.row),
          )
      }),
    )

  certs
    .command('export')
    .description('export one certificate to a file (written atomically, mode 0600)')
    .argument('<id>', 'the certificate id')
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
          await listedItem(session, profileId, id)
          session.saveNextTo(options.out)
          const saved = await session.call('certificates.export', {
            profileId,
            id,
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
    .argument('<id>', 'the certificate id')
    .option('--json', 'an array of {format, available, via?, id?, reason?}')
    .action((id: string, options: { json?: boolean }, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        const item = await listedItem(session, await session.profileIdToUse(), id)
        if (item === null) throw new CliError(`No certificate ${id} in the list`, EXIT.notFound)
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
