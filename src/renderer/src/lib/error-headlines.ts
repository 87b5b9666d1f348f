import type { OperationName, ServiceErrorCode } from '../../../shared/api'
import { isServiceErrorCode, operations } from '../../../shared/api'
import { whereIdsComeFrom, type IdKind } from './id-kinds'

/*
 * The headline of a service error, in the words of the operation that failed. The service
 * answers every operation with the same seven codes and the same generic messages ("Resource
 * already exists" for every 409); what a code means depends on the operation, which the
 * interface's endpoint notes and state tables (/work/shared/SERVICE_API.md, sections 3, 4 and
 * 7) tell. The service's own message and details stay beneath the headline (ErrorBanner).
 */

/** What an operation's error means, code by code; the rest is worded from `action`. */
interface OperationWords {
  /** What the user asked for, as a verb phrase: "list the sessions of this user". */
  action: string
  /** 404: which resource the service does not know. */
  notFound: string
  /**
   * 404 when the service names the resource it does not know (`details.resource`, as the
   * sandbox does): a sentence per resource kind, for operations whose path holds two ids.
   */
  notFoundOf?: Record<string, string>
  /**
   * The kinds of the ids the request names, by the resource name a 404's details would give:
   * a 404 says where a right id of each comes from (id-kinds), or of the one named.
   */
  ids?: Record<string, IdKind>
  /** 409: the state the resource is in that refuses this. */
  conflict: string
  /** 422: what the service could not do although the request was well-formed. */
  unprocessable: string
  /** 400, when more can be said than "a field is not valid". */
  validation?: string
}

const WORDS: Record<OperationName, OperationWords> = {
  listSessions: {
    action: 'list the browser sessions of this user',
    notFound: 'The service has no session list for this user.',
    conflict:
      'The service could not list the sessions in their current state; refresh to try again.',
    unprocessable: 'The service could not list the sessions of this user.',
  },
  logout: {
    action: 'log out of this session',
    notFound: 'The service no longer knows this session: it may have ended already.',
    conflict: 'This session cannot be logged out in its current state (it may be ending already).',
    unprocessable: 'The service could not log out of this session.',
  },
  moveCertificateFolder: {
    ids: { certificateFolder: 'certificate-folder' },
    action: 'move this certificate folder',
    notFound:
      'The service knows no certificate folder with this id, or none with the new parent id.',
    notFoundOf: {
      certificateFolder:
        'The folder to move, or the folder chosen as its new parent, does not exist.',
    },
    conflict: 'The folder cannot move there in the folders’ current state (the reason is below).',
    unprocessable:
      'The folder cannot move there: a folder cannot go under itself or one of its own subfolders.',
    validation: 'The new parent is not a folder id (a UUID) or the top level.',
  },
  moveUserFolder: {
    ids: { userFolder: 'user-folder' },
    action: 'move this user folder',
    notFound: 'The service knows no user folder with this id, or none with the new parent id.',
    notFoundOf: {
      userFolder:
        'The user folder to move, or the folder chosen as its new parent, does not exist.',
    },
    conflict:
      'The user folder cannot move there in the folders’ current state (the reason is below).',
    unprocessable:
      'The user folder cannot move there: a folder cannot go under itself or one of its own subfolders.',
    validation: 'The new parent is not a folder id (a UUID) or the top level.',
  },
  runPostgresQuery: {
    ids: { database: 'database' },
    action: 'run this statement',
    notFound: 'The service knows no database with this id.',
    conflict: 'The database is busy with a change that conflicts with this statement; try again.',
    unprocessable:
      'The statement was not run: PostgreSQL refused it, or this database does not run PostgreSQL (the reason is below).',
    validation: 'The statement or its row limit was not accepted.',
  },
  listInferenceModels: {
    action: 'list the inference models you can call',
    notFound: 'The service has no inference catalog.',
    conflict: 'The service could not list the inference models in their current state.',
    unprocessable: 'The service could not read the inference catalog.',
  },
  uploadCertificate: {
    ids: { certificateFolder: 'certificate-folder' },
    action: 'upload this certificate',
    notFound: 'The folder chosen for the certificate does not exist.',
    conflict: 'A certificate of this name already exists: choose another name.',
    unprocessable:
      'The service could not use these PEM files (the key may not match the certificate, or a file is not what its field says).',
    validation: 'Some fields of the upload are missing or not valid.',
  },
  rotateDatabaseCertificate: {
    ids: { database: 'database' },
    action: 'rotate the direct-TLS certificate of this database',
    notFound: 'The service knows no managed database with this id.',
    conflict:
      'A rotation of this database’s certificate is still waiting for the engine to reread it: wait, or allow a restart.',
    unprocessable:
      'The service could not rotate this database’s certificate (the reason is below).',
  },
  reorderNginxTemplateFolders: {
    ids: { nginxTemplateFolder: 'nginx-template-folder' },
    action: 'reorder these nginx template folders',
    notFound: 'One of the nginx template folders to reorder no longer exists: refresh the list.',
    conflict: 'The folders changed meanwhile: refresh the list and reorder again.',
    unprocessable: 'The service could not apply this order to the nginx template folders.',
    validation:
      'The order sent is not valid (each folder needs a UUID and a whole-number position).',
  },
  moveCertificates: {
    ids: { certificate: 'certificate', certificateFolder: 'certificate-folder' },
    action: 'move these certificates',
    notFound:
      'One of the certificates, or the destination folder, no longer exists: refresh the list.',
    notFoundOf: {
      certificate: 'One of the certificates to move no longer exists: refresh the list.',
      certificateFolder: 'The destination folder no longer exists: refresh the folders.',
    },
    conflict: 'These certificates cannot move to that folder in their current state.',
    unprocessable: 'The service could not move these certificates to that folder.',
    validation: 'Choose at least one certificate, and a folder or the top level.',
  },
  reorderLoggingEnvironments: {
    ids: { loggingEnvironment: 'logging-environment' },
    action: 'reorder these logging environments',
    notFound: 'One of the logging environments to reorder no longer exists: refresh the list.',
    conflict: 'The environments changed meanwhile: refresh the list and reorder again.',
    unprocessable: 'The service could not apply this order to the logging environments.',
    validation:
      'The order sent is not valid (at least one environment, each with a UUID and a position).',
  },
  exportCertificate: {
    ids: { certificate: 'certificate' },
    action: 'export this certificate',
    notFound: 'The service knows no certificate with this id.',
    conflict: 'This certificate cannot be exported in its current state.',
    unprocessable:
      'The service could not export this certificate in this format (a keystore format needs its private key, and some a passphrase).',
    validation: 'The format or the passphrase was not accepted.',
  },
  resolveMigration: {
    ids: { migration: 'migration' },
    action: 'resolve this migration',
    notFound: 'The service knows no migration with this id.',
    conflict:
      'This migration no longer needs attention (it was resolved meanwhile, or its status changed): nothing was resolved.',
    unprocessable: 'The service could not resolve this migration with the side chosen.',
    validation: 'Choose the authoritative side: source or target.',
  },
  retryProxyRoute: {
    ids: { proxyHost: 'proxy-host', additionalRoute: 'proxy-route' },
    action: 'retry this additional route',
    notFound: 'The service knows no proxy host with this id, or the host has no such route.',
    notFoundOf: {
      proxyHost: 'The service knows no proxy host with this id.',
      additionalRoute: 'This proxy host has no additional route with this id.',
    },
    conflict: 'This route has not failed, so there is nothing to retry.',
    unprocessable: 'The service could not retry this route.',
  },
  exportVolume: {
    ids: { node: 'node', volume: 'volume' },
    action: 'export this volume',
    notFound:
      'The service knows no node with this id, or the node has no volume of this name (the service does not say which).',
    notFoundOf: {
      node: 'The service knows no node with this id.',
      volume: 'This node has no volume of this name.',
    },
    conflict: 'This volume cannot be exported in its current state (an export may be under way).',
    unprocessable: 'The service could not export this volume.',
  },
  listCertificates: {
    action: 'list the SSL certificates',
    notFound: 'The service has no certificate list here.',
    conflict: 'The service could not list the certificates in their current state; refresh.',
    unprocessable: 'The service could not list the certificates with these filters.',
    validation: 'A filter or the page asked for was not accepted.',
  },
  cancelCopyJob: {
    ids: { copyJob: 'copy-job' },
    action: 'cancel this storage copy job',
    notFound: 'The service knows no storage copy job with this id.',
    conflict: 'This copy job has already finished, so it cannot be cancelled.',
    unprocessable: 'The service could not cancel this copy job.',
    validation: 'The copy job id must be a UUID.',
  },
  resolveIncident: {
    ids: { incident: 'incident' },
    action: 'resolve this status page incident',
    notFound: 'The service knows no status page incident with this id.',
    conflict: 'This incident is already resolved.',
    unprocessable: 'The service could not resolve this incident.',
  },
  resolveDeploymentSource: {
    ids: { node: 'node', deployment: 'deployment' },
    action: 'record the branch head of this deployment',
    notFound: 'The service knows no node with this id, or the node has no such deployment.',
    notFoundOf: {
      node: 'The service knows no node with this id.',
      deployment: 'This node has no deployment with this id.',
    },
    conflict: 'This deployment cannot record a new branch head in its current state.',
    unprocessable:
      'This deployment’s source cannot be resolved: it is not a blue/green deployment from a Git branch.',
  },
  listAppMembers: {
    ids: { app: 'app' },
    action: 'list the members of this app',
    notFound: 'The service knows no app with this id (or none you may view).',
    conflict: 'The service could not list the members of this app in its current state.',
    unprocessable: 'The service could not list the members of this app.',
    validation: 'The environment filter must be a UUID.',
  },
  getStatusPagePreview: {
    action: 'read the status page preview',
    notFound: 'The service has no status page to preview.',
    conflict: 'The status page preview could not be read in its current state.',
    unprocessable: 'The service could not build the status page preview.',
  },
  getLoggingSchema: {
    ids: { loggingSchema: 'logging-schema' },
    action: 'read this logging schema',
    notFound: 'The service knows no logging schema with this slug.',
    conflict: 'The service could not read this logging schema in its current state.',
    unprocessable: 'The service could not read this logging schema.',
  },
}

/** Every operation's headline for each of the seven codes. */
export function operationHeadlines(operation: OperationName): Record<ServiceErrorCode, string> {
  const words = WORDS[operation]
  const writes = operations[operation].mutates
  return {
    VALIDATION_ERROR:
      words.validation ?? `The service did not accept the request to ${words.action}.`,
    UNAUTHORIZED: `The service refused this profile’s token, so it did not ${words.action}: sign in again.`,
    FORBIDDEN: `This profile’s token may not ${words.action}.`,
    NOT_FOUND: words.notFound,
    CONFLICT: words.conflict,
    UNPROCESSABLE_ENTITY: words.unprocessable,
    INTERNAL_ERROR: writes
      ? `The service failed while trying to ${words.action}; it may have been done in part: refresh before trying again.`
      : `The service failed while trying to ${words.action}; try again.`,
  }
}

/**
 * The sentence for an error the service answered to `operation`, or null when the error is not
 * one of the service's seven codes for a known operation (the app's own errors keep theirs).
 */
export function operationHeadline(error: {
  code: string
  operation?: string | undefined
  details?: unknown
}): string | null {
  const { operation, code } = error
  // PostgreSQL's own refusal (a 422 whose details carry its SQLSTATE; the SQL console's runs
  // reach the banner without an operation): said plainly, its message and position follow.
  const sqlState = postgresStateOf(error.details)
  if (
    code === 'UNPROCESSABLE_ENTITY' &&
    sqlState !== null &&
    (operation === undefined || operation === 'runPostgresQuery')
  ) {
    return `PostgreSQL refused the statement (SQLSTATE ${sqlState}); its message is below.`
  }
  if (operation === undefined || !Object.hasOwn(WORDS, operation) || !isServiceErrorCode(code)) {
    return null
  }
  const name = operation as OperationName
  if (code === 'NOT_FOUND') {
    const resource = notFoundResourceOf(error.details)
    const precise = resource === null ? undefined : WORDS[name].notFoundOf?.[resource]
    if (precise !== undefined) return precise
  }
  return operationHeadlines(name)[code]
}

/**
 * After a 404 on an id, where a right id comes from (id-kinds): for the resource the service
 * named, or for every id the request holds when it named none. Null for any other error, or an
 * operation that takes no id. Said under the headline (ErrorBanner), not in it.
 */
export function whereRightIdsComeFrom(error: {
  code: string
  operation?: string | undefined
  details?: unknown
}): string | null {
  const { operation } = error
  if (error.code !== 'NOT_FOUND' || operation === undefined || !Object.hasOwn(WORDS, operation)) {
    return null
  }
  const ids = WORDS[operation as OperationName].ids ?? {}
  const resource = notFoundResourceOf(error.details)
  const named = resource === null ? undefined : ids[resource]
  return whereIdsComeFrom(named === undefined ? [...new Set(Object.values(ids))] : named)
}

/** The resource a 404's details name (`{ resource: 'volume', ... }`), if any. */
function notFoundResourceOf(details: unknown): string | null {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return null
  const resource = (details as Record<string, unknown>).resource
  return typeof resource === 'string' ? resource : null
}

/** The SQLSTATE of a PostgreSQL refusal (`{ sqlState, position, message }`), if the details hold one. */
function postgresStateOf(details: unknown): string | null {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return null
  const state = (details as Record<string, unknown>).sqlState
  return typeof state === 'string' && /^[0-9A-Z]{5}$/.test(state) ? state : null
}
