import { randomUUID } from 'node:crypto'
import type { Transfer } from '../../shared/bridge'
import { redact } from '../api/errors'
import type { Cache } from './index'

/*
 * The transfers log in SQLite (schema v4): one row per export, written when it starts, updated
 * as it progresses and when it ends. A row still `running` when the app starts belongs to a run
 * that died: it is marked `interrupted`.
 */

interface TransferRow {
  id: string
  profile_id: string
  profile_name: string
  kind: Transfer['kind']
  label: string
  source_json: string
  destination: string | null
  bytes_done: number
  bytes_total: number | null
  sha256: string | null
  state: Transfer['state']
  error_code: string | null
  error_message: string | null
  started_at: number
  finished_at: number | null
}

export interface TransferStart {
  profileId: string
  profileName: string
  kind: Transfer['kind']
  label: string
  source: Record<string, unknown>
  bytesTotal?: number | null
  /** Known up front when a save dialog chose it. */
  destination?: string | null
}

export type TransferEnd =
  | { state: 'completed'; destination: string; bytesDone: number; sha256: string }
  | {
      state: 'failed' | 'cancelled' | 'interrupted'
      errorCode: string | null
      errorMessage: string | null
    }

export interface TransferLog {
  start(start: TransferStart, at?: number): Transfer
  /** Progress; not announced as a cache change (events carry progress; this is for restarts). */
  progress(id: string, bytesDone: number, bytesTotal?: number | null): void
  finish(id: string, end: TransferEnd, at?: number): Transfer | undefined
  get(id: string): Transfer | undefined
  /** Newest first; without profileId, every profile's. */
  list(options: { profileId?: string; limit: number }): Transfer[]
  /** Marks rows a previous run left `running` as `interrupted`; returns how many. */
  markInterrupted(at?: number): number
}

const TABLES = ['transfers'] as const

export interface TransferLogOptions {
  /**
   * The tokens to cut out of an error message before it is stored. Callers pass messages that
   * were already redacted; this is the last gate, so that no caller (present or future) can
   * write a token into the file on disk.
   */
  secrets?: () => readonly string[]
}

export function createTransferLog(cache: Cache, options: TransferLogOptions = {}): TransferLog {
  const clean = (message: string | null) =>
    message === null || options.secrets === undefined ? message : redact(message, options.secrets())
  return cache.extend((db, notify) => {
    const insert = db.prepare<[TransferRow]>(
      `INSERT INTO transfers (id, profile_id, profile_name, kind, label, source_json, destination,
           bytes_done, bytes_total, sha256, state, error_code, error_message, started_at,
           finished_at)
         VALUES (@id, @profile_id, @profile_name, @kind, @label, @source_json, @destination,
           @bytes_done, @bytes_total, @sha256, @state, @error_code, @error_message, @started_at,
           @finished_at)`,
    )
    const updateProgress = db.prepare<[bytesDone: number, bytesTotal: number | null, id: string]>(
      `UPDATE transfers SET bytes_done = ?, bytes_total = COALESCE(?, bytes_total)
         WHERE id = ? AND state = 'running'`,
    )
    const updateEnd = db.prepare<
      [
        {
          id: string
          state: Transfer['state']
          destination: string | null
          bytes_done: number | null
          sha256: string | null
          error_code: string | null
          error_message: string | null
          finished_at: number
        },
      ]
    >(
      `UPDATE transfers SET state = @state, destination = COALESCE(@destination, destination),
           bytes_done = COALESCE(@bytes_done, bytes_done), sha256 = @sha256,
           error_code = @error_code, error_message = @error_message, finished_at = @finished_at
         WHERE id = @id AND state = 'running'`,
    )
    const selectOne = db.prepare<[id: string], TransferRow>('SELECT * FROM transfers WHERE id = ?')
    const selectOfProfile = db.prepare<[profileId: string, limit: number], TransferRow>(
      'SELECT * FROM transfers WHERE profile_id = ? ORDER BY started_at DESC, id LIMIT ?',
    )
    const selectAll = db.prepare<[limit: number], TransferRow>(
      'SELECT * FROM transfers ORDER BY started_at DESC, id LIMIT ?',
    )
    const interruptRunning = db.prepare<[finishedAt: number]>(
      `UPDATE transfers SET state = 'interrupted', finished_at = ?,
           error_message = 'Infradesk stopped before the transfer finished'
         WHERE state = 'running'`,
    )

    const get = (id: string) => {
      const row = selectOne.get(id)
      return row === undefined ? undefined : toTransfer(row)
    }

    return {
      start(start, at = Date.now()) {
        const row: TransferRow = {
          id: randomUUID(),
          profile_id: start.profileId,
          profile_name: start.profileName,
          kind: start.kind,
          label: start.label,
          source_json: JSON.stringify(start.source),
          destination: start.destination ?? null,
          bytes_done: 0,
          bytes_total: start.bytesTotal ?? null,
          sha256: null,
          state: 'running',
          error_code: null,
          error_message: null,
          started_at: at,
          finished_at: null,
        }
        insert.run(row)
        notify({ name: 'startTransfer', tables: TABLES, profileId: start.profileId })
        return toTransfer(row)
      },
      progress(id, bytesDone, bytesTotal = null) {
        updateProgress.run(bytesDone, bytesTotal, id)
      },
      finish(id, end, at = Date.now()) {
        const completed = end.state === 'completed'
        updateEnd.run({
          id,
          state: end.state,
          destination: completed ? end.destination : null,
          bytes_done: completed ? end.bytesDone : null,
          sha256: completed ? end.sha256 : null,
          error_code: completed ? null : end.errorCode,
          error_message: completed ? null : clean(end.errorMessage),
          finished_at: at,
        })
        const transfer = get(id)
        notify({ name: 'finishTransfer', tables: TABLES, profileId: transfer?.profileId ?? null })
        return transfer
      },
      get,
      list({ profileId, limit }) {
        const bounded = Math.min(1000, Math.max(1, Math.floor(limit)))
        const rows =
          profileId === undefined ? selectAll.all(bounded) : selectOfProfile.all(profileId, bounded)
        return rows.map(toTransfer)
      },
      markInterrupted(at = Date.now()) {
        const changes = interruptRunning.run(at).changes
        if (changes > 0) notify({ name: 'interruptTransfers', tables: TABLES, profileId: null })
        return changes
      },
    }
  })
}

function toTransfer(row: TransferRow): Transfer {
  let source: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(row.source_json)
    if (parsed !== null && typeof parsed === 'object') source = parsed as Record<string, unknown>
  } catch {
    // A row we wrote ourselves; unreadable only if the file was damaged. Show it without source.
  }
  return {
    id: row.id,
    profileId: row.profile_id,
    profileName: row.profile_name,
    kind: row.kind,
    label: row.label,
    source,
    destination: row.destination,
    bytesDone: row.bytes_done,
    bytesTotal: row.bytes_total,
    sha256: row.sha256,
    state: row.state,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  }
}
