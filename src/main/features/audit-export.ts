import type { ActivityEntry } from '../../shared/bridge'
import type { ActivityFilter, AuditExportFormat } from '../../shared/bridge/channels/activity'
import { csvLine } from '../../shared/csv'
import { redact } from '../api'
import type { AuditTrail } from '../cache/audit-trail'
import { createCertificateCache } from '../cache/certificates'
import { fileSystemError, writeFileAtomic } from '../transfers'
import type { DeskContext } from './context'
import { chooseSaveTarget } from './save-to-disk'

/*
 * The audit trail written to disk: every activity entry the filters let through,
 * oldest first, as CSV (RFC 4180, CRLF) or NDJSON (one JSON object a line), with UTC ISO
 * times, the profile's name and base URL, the operation, the target's id and the name known
 * for it, the outcome and the error code. Written atomically (temp file + rename) like every
 * export; nothing secret ever appears: every text is cut against every token this run handled
 * and every token in the keychain, and anything shaped like a bearer credential is cut too.
 */

/** One line of the trail, as both formats write it (the CSV's columns, in this order). */
export interface AuditRecord {
  time: string
  profileId: string
  profileName: string
  profileBaseUrl: string | null
  operation: string
  targetId: string | null
  targetName: string | null
  outcome: 'success' | 'error'
  errorCode: string | null
  message: string | null
}

const COLUMNS: readonly (keyof AuditRecord)[] = [
  'time',
  'profileId',
  'profileName',
  'profileBaseUrl',
  'operation',
  'targetId',
  'targetName',
  'outcome',
  'errorCode',
  'message',
]

/**
 * Credentials that announce themselves, whoever's they are (a token of a profile removed
 * since, which no registry holds any more): `Bearer <token>`, `Authorization: <value>`,
 * `token=<value>`, `access_token: <value>`.
 */
const CREDENTIAL_SHAPES: readonly RegExp[] = [
  // A bearer credential of 8 characters or more with a digit or symbol in it (not "Bearer token").
  /\b(Bearer)\s+(?=[A-Za-z0-9\-._~+/]*[0-9\-._~+/])[A-Za-z0-9\-._~+/]{8,}=*/gi,
  /\b(authorization|proxy-authorization)\s*[:=]\s*("[^"]*"|'[^']*'|[^\s,;]+(\s+[^\s,;]+)?)/gi,
  /\b(access[_-]?token|refresh[_-]?token|api[_-]?key|token|password|secret)\s*[:=]\s*("[^"]*"|'[^']*'|[^\s,;&]{8,})/gi,
]

/** `text` with every known secret and every credential-shaped stretch cut out. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = redact(text, secrets)
  for (const shape of CREDENTIAL_SHAPES) {
    scrubbed = scrubbed.replace(shape, (_match, label: string) => `${label} [redacted]`)
  }
  return scrubbed
}

export function auditCsvHeader(): string {
  return `${COLUMNS.join(',')}\r\n`
}

export function auditCsvLine(record: AuditRecord): string {
  return csvLine(COLUMNS.map((column) => record[column]))
}

export function auditNdjsonLine(record: AuditRecord): string {
  // JSON.stringify escapes U+2028/2029 and control characters: one record is one line.
  return `${JSON.stringify(record)}\n`
}

export interface AuditExportResult {
  path: string | null
  bytes: number
  sha256: string | null
  rows: number
}

/** Writes the filtered trail to a file the user chose (desktop) or the downloads folder (web). */
export async function exportAuditTrail(
  context: DeskContext,
  trail: AuditTrail,
  filter: ActivityFilter,
  format: AuditExportFormat,
): Promise<AuditExportResult> {
  const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..+$/, '')
  const target = await chooseSaveTarget(context, {
    title: 'Export the activity log',
    defaultName: `infradesk-activity-${stamp}.${format}`,
    filter: { name: format === 'csv' ? 'CSV' : 'NDJSON', extension: format },
  })
  if (target === null) return { path: null, bytes: 0, rows: 0, sha256: null }

  const secrets = await everySecret(context)
  const describe = recordMaker(context, secrets)
  let rows = 0
  function* chunks(): Generator<Uint8Array> {
    if (format === 'csv') yield Buffer.from(auditCsvHeader(), 'utf8')
    for (const batch of trail.batches(filter)) {
      const text = batch
        .map((entry) => {
          const record = describe(entry)
          return format === 'csv' ? auditCsvLine(record) : auditNdjsonLine(record)
        })
        .join('')
      rows += batch.length
      yield Buffer.from(text, 'utf8')
    }
  }
  const written = await writeFileAtomic(target.folder, target.name, chunks(), {
    collision: target.collision,
  }).catch((error: unknown) => {
    throw fileSystemError(error, target.folder)
  })
  return { path: written.path, bytes: written.size, sha256: written.sha256, rows }
}

/** Tokens of this run (the registry) and of every profile's keychain entry and proxy login. */
async function everySecret(context: DeskContext): Promise<string[]> {
  const found = new Set(context.secrets.list())
  for (const profile of context.profiles.list()) {
    const token = await context.vault.get(profile.id).catch(() => null)
    if (token !== null && token !== '') found.add(token)
    const proxy = await context.vault.getProxyCredentials(profile.id).catch(() => null)
    if (proxy?.password) found.add(proxy.password)
  }
  return [...found]
}

/** Turns entries into records: current profile name and URL, the known name of the target. */
function recordMaker(context: DeskContext, secrets: readonly string[]) {
  const certificates = createCertificateCache(context.cache)
  const names = new Map<string, string | null>()
  const nameOf = (profileId: string, targetId: string): string | null => {
    const key = `${profileId}\u0000${targetId}`
    if (!names.has(key)) {
      const known = context.knownObjects.lookup(profileId, [targetId]).find((o) => o.name)
      const certificate = known ? null : certificates.item(profileId, targetId)
      const certificateName = certificate?.['name'] ?? certificate?.['commonName']
      names.set(key, known?.name ?? (typeof certificateName === 'string' ? certificateName : null))
    }
    return names.get(key) ?? null
  }
  const scrub = (text: string | null) => (text === null ? null : scrubSecrets(text, secrets))
  return (entry: ActivityEntry): AuditRecord => {
    const profile = context.profiles.get(entry.profileId)
    return {
      time: new Date(entry.at).toISOString(),
      profileId: entry.profileId,
      // The name it had then is what the log recorded; a profile removed since keeps it.
      profileName: scrub(entry.profileName) ?? '',
      profileBaseUrl: profile ? scrub(stripUserInfo(profile.baseUrl)) : null,
      operation: entry.operation,
      targetId: scrub(entry.targetId),
      targetName: entry.targetId === null ? null : scrub(nameOf(entry.profileId, entry.targetId)),
      outcome: entry.outcome,
      errorCode: entry.errorCode,
      message: scrub(entry.message),
    }
  }
}

/** A base URL never carries a login into the file (the profile form refuses one; defence). */
function stripUserInfo(baseUrl: string): string {
  try {
    const url = new URL(baseUrl)
    url.username = ''
    url.password = ''
    return url.toString().replace(/\/$/, baseUrl.endsWith('/') ? '/' : '')
  } catch {
    return baseUrl
  }
}
