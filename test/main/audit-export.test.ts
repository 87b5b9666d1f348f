import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CACHE_FILE_NAME, openCache } from '../../src/main/cache'
import { scrubSecrets } from '../../src/main/features/audit-export'
import { csvField } from '../../src/shared/csv'
import type { ActivityEntry } from '../../src/shared/bridge'
import { readCsv } from '../support/csv-read'
import { tokenLeaks } from '../support/token-forms'
import { useSandboxDesk } from '../support/sandbox-desk'

/*
 * The audit trail: the Activity log filtered (profile, operation, outcome, time
 * range) and exported by main as CSV and NDJSON. Entries a run before this one wrote, holding
 * the profile's token and other credentials in their messages, and entries this run writes
 * through the real sandbox; the files are read back and searched for every form of the token
 * (test/support/token-forms.ts, written apart from the app's redaction).
 */

const OLD = Date.UTC(2021, 5, 1, 12, 0, 0)
const OLDER = Date.UTC(2020, 0, 1, 8, 30, 0)
/** A credential of no profile (one removed long ago): cut by its shape. */
const STRAY_BEARER = 'Bearer s3cr3t-Str4y-T0ken-value'
const STRAY_QUERY = 'access_token=Zz9-never-shown-QQ'

const world = useSandboxDesk('audit-export', {
  setup: (sandbox) => ({
    // What an earlier run left in the log: the token in every form a service may echo it.
    beforeOpen(dataDir) {
      const { cache } = openCache(path.join(dataDir, CACHE_FILE_NAME))
      const token = sandbox.tokens.admin
      const lines: [number, string, string][] = [
        [OLDER, 'logout', `token ${token} refused`],
        [OLD, 'moveCertificates', `echo ${encodeURIComponent(token)}; ${STRAY_BEARER}`],
        [OLD + 1, 'moveCertificates', `b64 ${Buffer.from(`Bearer ${token}`).toString('base64')}`],
        [OLD + 2, 'resolveIncident', `${STRAY_QUERY} and ${token.toUpperCase()}`],
      ]
      for (const [at, operation, message] of lines) {
        cache.recordActivity({
          at,
          profileId: 'earlier-profile',
          profileName: 'Earlier',
          operation,
          targetId: null,
          outcome: 'error',
          errorCode: 'UNAUTHORIZED',
          message,
        })
      }
      cache.close()
    },
  }),
  profile: { name: 'Audit staging' },
})

interface Exported {
  path: string | null
  bytes: number
  sha256: string | null
  rows: number
}

function readExport(result: Exported): string {
  if (result.path === null) throw new Error('nothing was written')
  const bytes = readFileSync(result.path)
  expect(bytes.length).toBe(result.bytes)
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(result.sha256)
  expect(path.dirname(result.path)).toBe(world.desk.downloads)
  return bytes.toString('utf8')
}

describe('the audit trail', () => {
  it('filters by time range, alone and with the other filters', async () => {
    const range = await world.desk.value<ActivityEntry[]>('activity.list', {
      from: OLD,
      to: OLD + 2,
    })
    expect(range.map((entry) => entry.at)).toEqual([OLD + 1, OLD])
    const withOperation = await world.desk.value<ActivityEntry[]>('activity.list', {
      from: OLDER,
      operation: 'logout',
    })
    expect(withOperation.map((entry) => entry.at)).toEqual([OLDER])
    const failure = await world.desk.failure('activity.list', { from: -5 })
    expect(failure.code).toBe('VALIDATION_ERROR')
  })

  it('exports CSV and NDJSON with names, base URL and UTC times, and no secret at all', async () => {
    // This run's entries, through the real service: one success (with a name known for its
    // target) and one failure.
    const jobId = world.seed.copyJobs.running[0] ?? world.seed.copyJobs.queued[0]
    if (jobId === undefined) throw new Error('the seed has no running or queued copy job')
    await world.desk.value('service.call', {
      profileId: world.profile.id,
      operation: 'cancelCopyJob',
      params: { id: jobId },
    })
    await world.desk.failure('service.call', {
      profileId: world.profile.id,
      operation: 'cancelCopyJob',
      params: { id: '99999999-9999-4999-8999-999999999999' },
    })
    const everything = await world.desk.value<ActivityEntry[]>('activity.list', { limit: 1000 })
    expect(everything.length).toBe(6)

    const csv = await world.desk.value<Exported>('activity.export', { format: 'csv' })
    const ndjson = await world.desk.value<Exported>('activity.export', { format: 'ndjson' })
    expect(csv.rows).toBe(6)
    expect(ndjson.rows).toBe(6)
    const csvText = readExport(csv)
    const ndjsonText = readExport(ndjson)

    // The secret scan: no form of the token, no stray credential.
    for (const text of [csvText, ndjsonText]) {
      expect(tokenLeaks(text, world.sandbox.tokens.admin)).toEqual([])
      expect(text).not.toContain('s3cr3t-Str4y-T0ken-value')
      expect(text).not.toContain('Zz9-never-shown-QQ')
      expect(text).toContain('[redacted]')
    }

    const [header, ...rows] = readCsv(csvText)
    expect(header).toEqual([
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
    ])
    // Oldest first, times in UTC ISO 8601.
    expect(rows.map((row) => row[0])).toEqual(
      [...everything].reverse().map((entry) => new Date(entry.at).toISOString()),
    )
    expect(rows[0]?.[0]).toBe('2020-01-01T08:30:00.000Z')

    const records = ndjsonText
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string | null>)
    expect(records).toHaveLength(6)
    const success = records.find((record) => record['outcome'] === 'success')
    expect(success).toMatchObject({
      profileName: 'Audit staging',
      profileBaseUrl: expect.stringContaining(new URL(world.sandbox.url).host),
      operation: 'cancelCopyJob',
      targetId: jobId,
    })
    expect(success?.['targetName']).toEqual(expect.any(String))
    const failed = records.filter((record) => record['profileId'] === world.profile.id).at(-1)
    expect(failed).toMatchObject({ outcome: 'error', errorCode: 'NOT_FOUND' })
    // A profile not in the store any more keeps its recorded name, and has no URL.
    expect(records[0]).toMatchObject({ profileName: 'Earlier', profileBaseUrl: null })
    // Both files hold the same records.
    expect(rows.map((row) => row[4])).toEqual(records.map((record) => record['operation']))
  })

  it('exports only what the filters let through', async () => {
    const result = await world.desk.value<Exported>('activity.export', {
      format: 'ndjson',
      profileId: world.profile.id,
      outcome: 'error',
    })
    const records = readExport(result)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ profileId: world.profile.id, outcome: 'error' })

    const none = await world.desk.value<Exported>('activity.export', {
      format: 'csv',
      from: OLD + 3,
      to: OLD + 4,
    })
    expect(none.rows).toBe(0)
    expect(readExport(none)).toBe(
      'time,profileId,profileName,profileBaseUrl,operation,targetId,targetName,outcome,errorCode,message\r\n',
    )
  })
})

describe('the writers', () => {
  it('quotes CSV fields and defuses formulas', () => {
    expect(csvField(null)).toBe('')
    expect(csvField('')).toBe('""')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvField('-1.5')).toBe('-1.5')
    expect(csvField('-2+3')).toBe("'-2+3")
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)")
  })

  it('cuts credentials by their shape, leaving ordinary words', () => {
    expect(scrubSecrets('Authorization: Bearer abc.def-123456', [])).not.toContain('abc.def')
    expect(scrubSecrets('a Bearer token is required', [])).toBe('a Bearer token is required')
    expect(scrubSecrets('password=hunter2hunter2 rest', [])).toBe('password [redacted] rest')
  })
})
