import { randomUUID } from 'node:crypto'
import { ExportRefused, exportCertificate as exportMaterial, inspectUpload } from '../pki'
import type { OperationHandler } from '../context'
import { conflict, invalidField, notFound, unprocessable } from '../failure'
import { GatewayFailure } from '../gateway'
import { accepts, bytes, contentDisposition, json } from '../http'
import { exportPkiCertificate, PkiExportRefused } from '../pki/gateway-export'
import { CERTIFICATE_STATUSES, CERTIFICATE_TYPES } from '../state'
import type { CertificateRecord, SandboxState } from '../state'
import {
  certificateStatus,
  certificateView,
  GATEWAY_CERTIFICATE_STATUSES,
  GATEWAY_CERTIFICATE_TYPES,
  gatewayCertificateStatus,
  gatewayCertificateType,
  gatewayCertificateView,
} from '../views'

const DEFAULT_PAGE_SIZE = 50
/**
 * The variant's page size, whatever was asked: a service may cap `limit` below what a client
 * asks (here 25 where the app asks 500) and say nothing about it, since it sends no `meta`.
 */
export const VARIANT_PAGE_CAP = 25
/** A real deployment's page size when `limit` is not sent (its bound, 1..100, is the router's). */
export const GATEWAY_DEFAULT_PAGE_SIZE = 20

function findCertificate(state: SandboxState, id: string): CertificateRecord {
  const certificate = state.certificates.find((candidate) => candidate.id === id)
  if (!certificate) throw notFound({ resource: 'certificate', id })
  return certificate
}

function assertFolderExists(state: SandboxState, folderId: string | null | undefined): void {
  if (folderId === null || folderId === undefined) return
  if (!state.certificateFolders.some((folder) => folder.id === folderId)) {
    throw notFound({ resource: 'certificateFolder', id: folderId, field: 'folderId' })
  }
}

/** An optional filter that must name one of `allowed`; '' means "no filter". */
function filterValue<T extends string>(
  field: string,
  value: string | undefined,
  allowed: readonly T[],
) {
  if (value === undefined || value === '') return undefined
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidField([field], `Expected one of: ${allowed.join(', ')}`)
  }
  return value as T
}

/** How a flavour reads op 16's filters: its own types and statuses, and what a search reads. */
interface ListFilterRules {
  types: readonly string[]
  statuses: readonly string[]
  typeOf: (certificate: CertificateRecord) => string
  statusOf: (certificate: CertificateRecord, now: Date) => string
  searched: (certificate: CertificateRecord) => readonly string[]
}

/**
 * The certificates op 16's query selects, unsorted: system ones only with showSystem, then by
 * type, status (each checked against the flavour's own values) and a case-insensitive search.
 */
function matchingCertificates(
  { core, query }: Parameters<OperationHandler<'listCertificates'>>[0],
  now: Date,
  rules: ListFilterRules,
): CertificateRecord[] {
  const type = filterValue('type', query.type, rules.types)
  const status = filterValue('status', query.status, rules.statuses)
  const search = query.search?.trim().toLowerCase() ?? ''
  const showSystem = query.showSystem === true
  return core.state.certificates
    .filter((certificate) => showSystem || !certificate.isSystem)
    .filter((certificate) => type === undefined || rules.typeOf(certificate) === type)
    .filter((certificate) => status === undefined || rules.statusOf(certificate, now) === status)
    .filter(
      (certificate) =>
        search === '' ||
        rules.searched(certificate).some((text) => text.toLowerCase().includes(search)),
    )
}

/**
 * Op 16: pages (from 1, 50 a page, at most 500), filters by type and status, searches name,
 * common name and SANs case-insensitively, and hides system certificates unless showSystem.
 * The variant caps every page at VARIANT_PAGE_CAP and sends `data` alone, without `meta`: the
 * other reasonable reading of "any pagination data in the response: not shown".
 */
const listCertificates: OperationHandler<'listCertificates'> = (context) => {
  if (context.core.flavor === 'gateway') return listGatewayCertificates(context)
  const { core, query } = context
  const now = core.now()
  const page = query.page ?? 1
  const asked = query.limit ?? DEFAULT_PAGE_SIZE
  const limit = core.variant ? Math.min(asked, VARIANT_PAGE_CAP) : asked
  const matching = matchingCertificates(context, now, {
    types: CERTIFICATE_TYPES,
    statuses: CERTIFICATE_STATUSES,
    typeOf: (certificate) => certificate.type,
    statusOf: certificateStatus,
    searched: (certificate) => [
      certificate.name,
      certificate.facts.commonName,
      ...certificate.facts.subjectAltNames,
    ],
  }).sort(
    (a, b) =>
      a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id),
  )

  const pageItems = matching.slice((page - 1) * limit, page * limit)
  const data = pageItems.map((certificate) => certificateView(certificate, core.state, now))
  if (core.variant) return json({ data })
  return json({ data, meta: { page, limit, total: matching.length } })
}

/**
 * Op 16 as a real deployment pages it: `limit` 1..100 (20 when not sent), newest first (by
 * `createdAt`, then id so that equal dates keep one order), filters by its own types (acme,
 * upload, internal) and statuses (active, expired, pending, error), searches the name only,
 * and answers `{data, pagination: {page, limit, total, totalPages}}`.
 */
const listGatewayCertificates: OperationHandler<'listCertificates'> = (context) => {
  const { core, query } = context
  const now = core.now()
  const page = query.page ?? 1
  const limit = query.limit ?? GATEWAY_DEFAULT_PAGE_SIZE
  const matching = matchingCertificates(context, now, {
    types: GATEWAY_CERTIFICATE_TYPES,
    statuses: GATEWAY_CERTIFICATE_STATUSES,
    typeOf: gatewayCertificateType,
    statusOf: gatewayCertificateStatus,
    searched: (certificate) => [certificate.name],
  }).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
  const data = matching
    .slice((page - 1) * limit, page * limit)
    .map((certificate) => gatewayCertificateView(certificate, core.state, now))
  const total = matching.length
  return json({ data, pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } })
}

/** Op 7: checks the PEMs, reads the facts from the certificate, and answers 201. */
const uploadCertificate: OperationHandler<'uploadCertificate'> = ({ core, body }) => {
  const state = core.state
  const name = body.name.trim()
  if (name === '') throw invalidField(['name'], 'Name must not be empty')
  assertFolderExists(state, body.folderId)
  const taken = state.certificates.some(
    (certificate) => certificate.name.toLowerCase() === name.toLowerCase(),
  )
  if (taken) {
    throw conflict([{ path: ['name'], message: `A certificate named "${name}" already exists` }])
  }
  const inspection = inspectUpload({
    certificatePem: body.certificatePem,
    privateKeyPem: body.privateKeyPem,
    ...(body.chainPem === undefined ? {} : { chainPem: body.chainPem }),
  })
  if (!inspection.ok) {
    throw unprocessable([{ path: [inspection.problem.field], message: inspection.problem.message }])
  }
  const now = core.now().toISOString()
  const certificate: CertificateRecord = {
    id: randomUUID(),
    name,
    type: 'custom',
    folderId: body.folderId ?? null,
    isSystem: false,
    autoRenew: false,
    revokedAt: null,
    origin: 'upload',
    createdAt: now,
    updatedAt: now,
    material: {
      certificatePem: inspection.certificatePem,
      privateKeyPem: inspection.privateKeyPem,
      chainPem: inspection.chainPem,
      // An uploaded chain carries its own issuers; the root, if any, is part of chainPem.
      rootPem: '',
    },
    facts: inspection.facts,
  }
  state.certificates.push(certificate)
  const view =
    core.flavor === 'gateway'
      ? gatewayCertificateView(certificate, state, core.now())
      : certificateView(certificate, state, core.now())
  return json({ data: view }, 201)
}

/** Op 10: moves every named certificate into the folder (null = no folder), or none at all. */
const moveCertificates: OperationHandler<'moveCertificates'> = ({ core, body }) => {
  const state = core.state
  assertFolderExists(state, body.folderId)
  const ids = [...new Set(body.ids)]
  const missing = ids.filter(
    (id) => !state.certificates.some((certificate) => certificate.id === id),
  )
  if (missing.length > 0) throw notFound({ resource: 'certificate', ids: missing })
  const now = core.now()
  const moved = ids.map((id) => {
    const certificate = findCertificate(state, id)
    certificate.folderId = body.folderId
    certificate.updatedAt = now.toISOString()
    return certificateView(certificate, state, now)
  })
  // A real deployment answers a move as it answers a reorder: `{success: true}`, no `data`.
  if (core.flavor === 'gateway') return json({ success: true })
  return json({ data: { folderId: body.folderId, movedIds: ids, certificates: moved } })
}

/**
 * Op 12: a real file in each of the 8 formats. Raw bytes when asked with
 * `Accept: application/octet-stream`, otherwise JSON with base64 (binary) or utf8 (PEM text).
 */
const exportCertificate: OperationHandler<'exportCertificate'> = (context) => {
  if (context.core.flavor === 'gateway') return exportGatewayCertificate(context)
  const { core, params, body, request } = context
  const certificate = findCertificate(core.state, params.id)
  let file
  try {
    file = exportMaterial(certificate.material, body.format, {
      baseName: certificate.name,
      ...(body.passphrase === undefined ? {} : { passphrase: body.passphrase }),
    })
  } catch (error) {
    if (error instanceof ExportRefused) {
      throw unprocessable([{ path: [error.field], message: error.message }])
    }
    throw error
  }
  // The variant always answers the JSON form: "response shape and media type: not shown".
  if (!core.variant && accepts(request, 'application/octet-stream')) {
    return bytes(file.bytes, {
      'Content-Type': file.mediaType,
      'Content-Disposition': contentDisposition(file.filename),
    })
  }
  return json({
    data: {
      id: randomUUID(),
      certificateId: certificate.id,
      format: body.format,
      filename: file.filename,
      mediaType: file.mediaType,
      encoding: file.isText ? 'utf8' : 'base64',
      content: file.isText ? file.bytes.toString('utf8') : file.bytes.toString('base64'),
      sizeBytes: file.bytes.length,
    },
  })
}

/**
 * Op 12 as a real deployment answers it: `{id}` names the internal PKI's certificate (an SSL
 * certificate of type internal links to it by `internalCertId`; an SSL certificate's own id is
 * not found), and the answer is the file itself whatever the Accept header (pki/gateway-export.ts).
 */
const exportGatewayCertificate: OperationHandler<'exportCertificate'> = ({
  core,
  params,
  body,
}) => {
  const certificate = core.state.certificates.find(
    (candidate) => candidate.pkiCertificateId === params.id,
  )
  if (certificate === undefined) {
    throw new GatewayFailure(404, 'CERT_NOT_FOUND', 'Certificate not found')
  }
  let file
  try {
    file = exportPkiCertificate(certificate.material, body.format, {
      commonName: certificate.facts.commonName,
      passphrase: body.passphrase,
    })
  } catch (error) {
    if (error instanceof PkiExportRefused) throw new GatewayFailure(400, error.code, error.message)
    throw error
  }
  return bytes(file.bytes, {
    'Content-Type': file.mediaType,
    'Content-Disposition': `attachment; filename="${file.filename}"`,
  })
}

export const certificateHandlers = {
  listCertificates,
  uploadCertificate,
  moveCertificates,
  exportCertificate,
}
