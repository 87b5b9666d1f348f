import { randomUUID } from 'node:crypto'
import type { OperationHandler, SandboxCore } from '../context'
import { conflict, invalidField, notFound, unprocessable } from '../failure'
import { json } from '../http'
import { SqlError } from '../postgres/types'
import { issueDatabaseCertificate } from '../database-certificates'
import type { DatabaseRecord, RotationMode, RotationRecord } from '../state'

/** SERVICE_API.md leaves op 5's default open; ARCHITECTURE.md fixes it at 1000 rows. */
const DEFAULT_MAX_ROWS = 1000
/** How long ClickHouse takes to reread its certificate on its own schedule, in the sandbox. */
export const SCHEDULED_REREAD_MS = 5000

function findDatabase(core: SandboxCore, id: string): DatabaseRecord {
  const database = core.state.databases.find((candidate) => candidate.id === id)
  if (!database) throw notFound({ resource: 'database', id })
  return database
}

/** Op 5: one statement on the database's real PostgreSQL; failures keep PostgreSQL's own words. */
const runPostgresQuery: OperationHandler<'runPostgresQuery'> = async ({ core, params, body }) => {
  const database = findDatabase(core, params.id)
  if (database.engine !== 'postgresql') {
    throw unprocessable({
      engine: database.engine,
      message: `${database.name} is a ${database.engine} database; SQL statements run on PostgreSQL only`,
    })
  }
  if (body.sql.trim() === '') throw invalidField(['sql'], 'SQL must not be empty')
  try {
    const outcome = await core.postgres.query(
      database.id,
      body.sql,
      body.maxRows ?? DEFAULT_MAX_ROWS,
    )
    return json({
      data: {
        command: outcome.command,
        rowCount: outcome.rowCount,
        fields: outcome.fields,
        rows: outcome.rows,
        truncated: outcome.truncated,
        durationMs: outcome.durationMs,
      },
    })
  } catch (error) {
    if (error instanceof SqlError) {
      throw unprocessable({
        sqlState: error.sqlState,
        position: error.position,
        message: error.message,
      })
    }
    throw error
  }
}

/** A scheduled reread whose time has come is done: settled lazily, whenever the database is read. */
function settleRotation(database: DatabaseRecord, now: Date): void {
  const rotation = database.lastRotation
  if (
    rotation?.status === 'pending' &&
    rotation.completesAt !== null &&
    rotation.completesAt <= now.getTime()
  ) {
    rotation.status = 'completed'
    rotation.completedAt = new Date(rotation.completesAt).toISOString()
  }
}

/**
 * How the engine takes the new certificate (SERVICE_API.md op 8): in place, unless the node's
 * daemon cannot reload yet (restart), or the engine rereads on a schedule (ClickHouse), in
 * which case allowRestart trades the wait for a restart.
 */
function rotationMode(
  database: DatabaseRecord,
  canReload: boolean,
  allowRestart: boolean,
): RotationMode {
  if (!canReload) return 'restarted'
  if (database.engine === 'clickhouse') return allowRestart ? 'restarted' : 'scheduled_reread'
  return 'reloaded_in_place'
}

function rotationView(rotation: RotationRecord) {
  return {
    id: rotation.id,
    mode: rotation.mode,
    status: rotation.status,
    requestedAt: rotation.requestedAt,
    completesAt:
      rotation.completesAt === null ? null : new Date(rotation.completesAt).toISOString(),
    completedAt: rotation.completedAt,
    serialNumber: rotation.serialNumber,
  }
}

/** Op 8: issues a new certificate from the database CA and has the engine take it. */
const rotateDatabaseCertificate: OperationHandler<'rotateDatabaseCertificate'> = async ({
  core,
  params,
  body,
}) => {
  const database = findDatabase(core, params.id)
  const node = core.state.nodes.find((candidate) => candidate.id === database.nodeId)
  const allowRestart = body.allowRestart === true
  const refusePending = () => {
    settleRotation(database, core.now())
    const pending = database.lastRotation
    if (pending?.status === 'pending' && !allowRestart) {
      throw conflict({
        reason: 'A certificate rotation is still waiting for the engine to reread it',
        rotation: rotationView(pending),
      })
    }
  }
  refusePending()

  const certificate = await issueDatabaseCertificate(core.pki, database.host, core.now())
  // Another rotation may have started while the certificate was being issued.
  refusePending()

  const now = core.now()
  const mode = rotationMode(database, node?.canReloadCertificates ?? false, allowRestart)
  const previous = database.lastRotation
  if (previous?.status === 'pending') {
    // The restart loads the newest certificate, so the reread it was waiting for is moot.
    previous.status = 'completed'
    previous.completedAt = now.toISOString()
  }
  const previousSerialNumber = database.certificate.serialNumber
  const scheduled = mode === 'scheduled_reread'
  const rotation: RotationRecord = {
    id: randomUUID(),
    mode,
    status: scheduled ? 'pending' : 'completed',
    requestedAt: now.toISOString(),
    completesAt: scheduled ? now.getTime() + SCHEDULED_REREAD_MS : null,
    completedAt: scheduled ? null : now.toISOString(),
    serialNumber: certificate.serialNumber,
    previousSerialNumber,
  }
  database.certificate = certificate
  database.lastRotation = rotation

  return json({
    data: {
      id: rotation.id,
      databaseId: database.id,
      name: database.name,
      engine: database.engine,
      nodeId: database.nodeId,
      mode,
      status: rotation.status,
      ...(scheduled ? { completesAt: new Date(rotation.completesAt ?? 0).toISOString() } : {}),
      restarted: mode === 'restarted',
      requestedAt: rotation.requestedAt,
      completedAt: rotation.completedAt,
      certificate,
      previousSerialNumber,
      previousRotation: previous ? rotationView(previous) : null,
    },
  })
}

export const databaseHandlers = { runPostgresQuery, rotateDatabaseCertificate }
