import { randomUUID } from 'node:crypto'
import type { OperationHandler, SandboxCore } from '../context'
import { conflict, invalidField, notFound, unprocessable, validationFailure } from '../failure'
import { json } from '../http'
import { GatewayFailure } from '../gateway'
import { runGatewayQuery } from '../postgres/gateway-query'
import { SqlError, type SqlOutcome } from '../postgres/types'
import { issueDatabaseCertificate } from '../database-certificates'
import type { DatabaseRecord, RotationMode, RotationRecord } from '../state'

/**
 * Op 5's bounds, which the spec leaves open. `service` is what published code of this
 * service validates (maxRows an integer from 1 to 2,000, 500 by default; sql at most 100,000
 * characters), so the sandbox refuses what a real deployment refuses. `wide` (SandboxOptions
 * `sqlLimits: 'wide'`, `--wide-sql-limits`) is for the benches and tests that read 100,000
 * rows: the contract's own bound (the router's) and no limit on the text beyond the body's.
 */
export const SQL_LIMITS = {
  service: { defaultMaxRows: 500, maxRows: 2000, sqlChars: 100_000 },
  wide: { defaultMaxRows: 1000, maxRows: 100_000, sqlChars: Number.POSITIVE_INFINITY },
} as const
/** How long ClickHouse takes to reread its certificate on its own schedule, in the sandbox. */
export const SCHEDULED_REREAD_MS = 5000

function findDatabase(core: SandboxCore, id: string): DatabaseRecord {
  const database = core.state.databases.find((candidate) => candidate.id === id)
  if (!database) throw notFound({ resource: 'database', id })
  return database
}

/** Op 5: one statement on the database's real PostgreSQL; failures keep PostgreSQL's own words. */
const runPostgresQuery: OperationHandler<'runPostgresQuery'> = async ({ core, params, body }) => {
  const limits = SQL_LIMITS[core.sqlLimits]
  refuseOutOfBounds(limits, body)
  const database = findDatabase(core, params.id)
  if (core.flavor === 'gateway') {
    if (body.sql.trim() === '') throw invalidField(['sql'], 'SQL must not be empty')
    if (database.engine !== 'postgresql') {
      throw new GatewayFailure(400, 'INVALID_PROVIDER', 'Database is not Postgres')
    }
    const maxRows = body.maxRows ?? limits.defaultMaxRows
    const answer = await runGatewayQuery(core.postgres, database.id, body.sql, maxRows, () =>
      core.now().getTime(),
    )
    return json({ data: answer })
  }
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
      body.maxRows ?? limits.defaultMaxRows,
    )
    if (!core.variant) {
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
    }
    return json({ data: variantResult(database, outcome) })
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

/**
 * The sandbox's own bounds on op 5, beside the contract's (which the router checks and both
 * sides share): refused with the body a real deployment sends, a VALIDATION_ERROR on the field.
 */
function refuseOutOfBounds(
  limits: (typeof SQL_LIMITS)[keyof typeof SQL_LIMITS],
  body: { sql: string; maxRows?: number | undefined },
): void {
  const issues = []
  if (body.sql.length > limits.sqlChars) {
    issues.push({ path: ['sql'], message: `Must be at most ${limits.sqlChars} characters` })
  }
  if (body.maxRows !== undefined && body.maxRows > limits.maxRows) {
    issues.push({ path: ['maxRows'], message: `Must be at most ${limits.maxRows}` })
  }
  if (issues.length > 0) throw validationFailure(issues)
}

/**
 * The variant's op 5 answer: rows as objects keyed by column name, as a service that hands on
 * its driver's rows would. Which of two such services it is depends on the database, so both
 * can be reached on one sandbox and a test knows which one it meets:
 * - a `small` database answers `{ rows: [{...}], rowCount, truncated, tookMs }`: no field list
 *   (the columns are the keys), no command tag, the time under another name;
 * - a `large` database answers node-postgres's result: `command`, `rowCount`,
 *   `fields: [{ name, dataTypeID }]` (type OIDs, not names), object rows, `elapsedMs`.
 * Object rows keep one value per name: of two columns with the same name the last wins, as
 * in node-postgres.
 */
function variantResult(database: DatabaseRecord, outcome: SqlOutcome) {
  const names = outcome.fields.map((field) => field.name)
  const rows = outcome.rows.map((row) =>
    Object.fromEntries(names.map((name, column) => [name, row[column] ?? null])),
  )
  const truncated = outcome.truncated
  if (database.postgresSeed !== 'large') {
    return { rows, rowCount: outcome.rowCount, truncated, tookMs: outcome.durationMs }
  }
  return {
    command: outcome.command,
    rowCount: outcome.rowCount,
    fields: outcome.fields.map((field, column) => ({
      name: field.name,
      dataTypeID: outcome.typeOids[column] ?? 0,
    })),
    rows,
    truncated,
    elapsedMs: outcome.durationMs,
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
 * How the engine takes the new certificate (the spec's op 8): in place, unless the node's
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

/**
 * The gateway flavour's op 8 on a database whose node's daemon cannot take the new certificate
 * (the seed's `rate-limiter` on `docker-legacy-01`, listed in `/__sandbox/seed` as
 * `databases.daemonCannotReload`): a real deployment answers 200 with the managed database
 * itself, `status: "error"` and `lastError` saying the update failed (its `markError`). The
 * engine keeps serving the certificate it had, so the sandbox's record does not change.
 */
function failedRotationView(database: DatabaseRecord, now: Date) {
  return {
    id: database.id,
    nodeId: database.nodeId,
    name: database.name,
    type: database.engine,
    version: database.version,
    tlsEnabled: true,
    status: 'error',
    lastError:
      'Managed database update failed: the node daemon cannot reload TLS certificates in place; update the daemon or restart the database',
    createdAt: database.createdAt,
    updatedAt: now.toISOString(),
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
  if (core.flavor === 'gateway' && node?.canReloadCertificates === false) {
    return json({ data: failedRotationView(database, core.now()) })
  }

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
