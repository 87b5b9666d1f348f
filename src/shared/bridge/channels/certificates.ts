import { z } from 'zod'
import { EXPORT_FORMATS } from '../../api/resources'
import type { ExportFormat } from '../../api/resources'
import { bridgeErrorSchema } from '../result'
import { isLocaleTag } from '../../certificate-order'
import { id, profileId } from '../common'

/*
 * The certificates screen (ops 16, 10, 3), upload (op 7) and certificate export (op 12).
 * Channels and events of this area; contract.ts spreads them into the one bridge contract.
 *
 * What crosses: list rows (a compact projection, so 10,000 of them answer fast), one
 * certificate's fields, facts read from its public PEM, and PEM text the user typed or chose
 * going *into* main for upload. Never a private key coming back out, never an exported file's
 * bytes (main writes the file; the renderer learns its path, size and SHA-256).
 */

const uuid = z.uuid({ error: 'Enter a folder id (a UUID)' })

/** Filters of op 16, sent to the service and applied to the cache when offline. */
export const certificateFilterSchema = z.lazy(() =>
  z.object({
    type: z.string().trim().max(100).optional(),
    status: z.string().trim().max(100).optional(),
    search: z.string().trim().max(500).optional(),
    showSystem: z.boolean().optional(),
  }),
)
export type CertificateFilter = z.infer<typeof certificateFilterSchema>

/** The certificates screen's filter when it opens: system certificates hidden. */
export const OPENING_CERTIFICATE_FILTER: CertificateFilter = Object.freeze({ showSystem: false })

/** One line of the list: what the table, the counts and the folder tree need. */
export const certificateRowSchema = z.lazy(() =>
  z.object({
    id,
    name: z.string(),
    type: z.string().nullable(),
    status: z.string().nullable(),
    folderId: z.string().nullable(),
    /** Folder names from the top, as the service sent them; [] when none (or not sent). */
    folderPath: z.array(z.string()),
    commonName: z.string().nullable(),
    /** ISO 8601, from the service's `notAfter` (or `expiresAt`/`validTo`). */
    notAfter: z.string().nullable(),
    isSystem: z.boolean(),
    hasPrivateKey: z.boolean().nullable(),
  }),
)
export type CertificateRow = z.infer<typeof certificateRowSchema>

/** A folder seen in certificate data: its id and the names from the top down to it. */
export const certificateFolderSchema = z.lazy(() => z.object({ id, path: z.array(z.string()) }))
export type CertificateFolder = z.infer<typeof certificateFolderSchema>

/**
 * Why the last refresh's list may lack certificates (null when nothing says so). Op 16's paging
 * is not in the spec, so the walk over its pages can end without proof it saw everything: at
 * the app's bounds on pages, certificates held or bytes of answers read (a service may keep
 * sending new ones), or with `meta.total` disagreeing with what arrived; and items the service
 * listed without a usable id (`unlisted`) are not shown. The screen says so rather than show a
 * part as the whole.
 */
export const listCompletenessSchema = z.lazy(() =>
  z.object({
    /** What ended the walk short; `unlisted` when it ended whole but some items had no id. */
    reason: z.enum(['page-bound', 'row-bound', 'byte-bound', 'total-mismatch', 'unlisted']),
    /** Distinct certificates that arrived. */
    received: z.int().nonnegative(),
    /** The service's `meta.total`, or the least the walk proves exists; null when unknown. */
    expected: z.int().nonnegative().nullable(),
    /** Pages asked for. */
    pages: z.int().nonnegative(),
    /** In words, for the screen: "57 of at least 60: the service stopped answering pages". */
    message: z.string(),
    /** Items the service listed without a usable id, not shown (absent: none, or not counted). */
    unlisted: z.int().positive().optional(),
  }),
)
export type ListCompleteness = z.infer<typeof listCompletenessSchema>

export const certificateListSchema = z.lazy(() =>
  z.object({
    rows: z.array(certificateRowSchema),
    /** Every folder seen in this profile's cached certificates (whatever the filter). */
    folders: z.array(certificateFolderSchema),
    fetchedAt: z.number().nullable(),
    /** The last refresh's note on a list that may be incomplete (kept in the cache with it). */
    completeness: listCompletenessSchema.nullable(),
    offline: z.boolean(),
    error: bridgeErrorSchema.nullable(),
    /**
     * Set when `rows` are only the first of this many (certificates.cached asked for `first`):
     * read the list again without it for the rest.
     */
    firstOf: z.int().nonnegative().optional(),
    /**
     * How many system certificates the cache holds that the filter hides (showSystem off) but
     * would otherwise show: the screen says "36 shown · 4 system hidden", so its count adds up
     * to the Overview's, which counts every cached certificate. 0 when shown; absent from older
     * answers.
     */
    systemHidden: z.int().nonnegative().optional(),
  }),
)
export type CertificateList = z.infer<typeof certificateListSchema>

/** The first screenful of the active profile's list (certificates.firstScreenful). */
const activeFirstScreenfulSchema = z.lazy(() =>
  z.object({
    profileId: id.nullable(),
    list: certificateListSchema.nullable(),
  }),
)
export type ActiveFirstScreenful = z.infer<typeof activeFirstScreenfulSchema>

/** The most rows a first screenful may ask for. */
export const MAX_FIRST_ROWS = 1000

/**
 * The first rows of the list in its default order (name, then id: certificate-order.ts), as
 * the screen sorts them in `locale`: what the screen paints while the whole list is read.
 */
const firstRowsSchema = z.lazy(() =>
  z.object({
    count: z.int().min(1).max(MAX_FIRST_ROWS),
    locale: z.string().min(1).max(100).refine(isLocaleTag, { error: 'Not a locale tag' }),
  }),
)

/** Read from an X.509 certificate itself (node:crypto), never from what a service claims. */
export const certificateFactsSchema = z.lazy(() =>
  z.object({
    subject: z.string(),
    issuer: z.string(),
    subjectAltNames: z.array(z.string()),
    notBefore: z.string(),
    notAfter: z.string(),
    serialNumber: z.string(),
    fingerprintSha256: z.string(),
    keyAlgorithm: z.string(),
    selfSigned: z.boolean(),
  }),
)
export type CertificateFacts = z.infer<typeof certificateFactsSchema>

/** A PEM the user pasted, dropped or picked in a file input; or one main read from a dialog. */
export const pemSourceSchema = z.lazy(() =>
  z.union([
    z.object({ pem: z.string().max(1_048_576, 'At most 1 MiB of PEM text') }),
    z.object({ stagedId: id }),
  ]),
)
export type PemSource = z.infer<typeof pemSourceSchema>

export const UPLOAD_FIELDS = [
  'name',
  'folderId',
  'certificatePem',
  'privateKeyPem',
  'chainPem',
] as const
export type UploadField = (typeof UPLOAD_FIELDS)[number]

export const uploadIssueSchema = z.lazy(() =>
  z.object({
    field: z.enum(UPLOAD_FIELDS),
    message: z.string(),
  }),
)
export type UploadIssue = z.infer<typeof uploadIssueSchema>

export const uploadMaterialSchema = z.object({
  certificate: pemSourceSchema,
  privateKey: pemSourceSchema,
  chain: pemSourceSchema.optional(),
})

export const uploadCheckSchema = z.lazy(() =>
  z.object({
    /** Blocking: nothing is sent while there is one. */
    problems: z.array(uploadIssueSchema),
    /** Shown, not blocking (expired, expiring soon, not yet valid). */
    warnings: z.array(uploadIssueSchema),
    /** The leaf, when it parses. */
    preview: certificateFactsSchema.nullable(),
    /** Certificates in the chain (after the leaf), in the order given. */
    chain: z.array(z.object({ subject: z.string(), issuer: z.string(), notAfter: z.string() })),
    /** PKCS#8 "ENCRYPTED PRIVATE KEY" or a legacy "Proc-Type: 4,ENCRYPTED" key. */
    encryptedKey: z.boolean(),
  }),
)
export type UploadCheck = z.infer<typeof uploadCheckSchema>

/** Export formats: the file each makes, for people, and whether a passphrase is offered. */
export const EXPORT_FORMAT_INFO: Record<
  ExportFormat,
  {
    label: string
    extension: string
    description: string
    passphrase: 'required' | 'optional' | 'none'
    /** Bytes that are not text (DER, keystores): never passed through a text decoder. */
    binary: boolean
  }
> = {
  pem: {
    label: 'PEM certificate',
    extension: '.pem',
    description: 'The certificate alone, Base64 text (-----BEGIN CERTIFICATE-----).',
    passphrase: 'none',
    binary: false,
  },
  der: {
    label: 'DER certificate',
    extension: '.der',
    description: 'The certificate alone, binary DER (Windows .cer, Java).',
    passphrase: 'none',
    binary: true,
  },
  pkcs12: {
    label: 'PKCS#12 keystore',
    extension: '.p12',
    description: 'Certificate, private key and chain in one binary file (.p12/.pfx).',
    passphrase: 'optional',
    binary: true,
  },
  jks: {
    label: 'Java keystore',
    extension: '.jks',
    description:
      'Certificate, private key and chain as a JKS keystore for Java; needs a passphrase.',
    passphrase: 'required',
    binary: true,
  },
  chain: {
    label: 'Chain',
    extension: '-chain.pem',
    description: 'The intermediate certificates only, PEM text, without the certificate itself.',
    passphrase: 'none',
    binary: false,
  },
  fullchain: {
    label: 'Full chain',
    extension: '-fullchain.pem',
    description: 'The certificate followed by its intermediates, PEM text (nginx ssl_certificate).',
    passphrase: 'none',
    binary: false,
  },
  'private-key': {
    label: 'Private key',
    extension: '.key',
    description: 'The private key alone, PKCS#8 PEM; encrypted when a passphrase is given.',
    passphrase: 'optional',
    binary: false,
  },
  'pem-bundle': {
    label: 'PEM bundle',
    extension: '-bundle.pem',
    description: 'Private key, certificate and chain in one PEM text file (HAProxy).',
    passphrase: 'optional',
    binary: false,
  },
}

/**
 * Where each export format of a certificate comes from, read from the certificate as the list
 * sent it (op 16's item). A real deployment's op 12 exports its internal PKI's certificates, not
 * SSL certificates: an SSL certificate of type `internal` names its PKI certificate in
 * `internalCertId`, and that id is what op 12 takes; `acme` and `upload` certificates have no
 * export there, but the list carries their public PEM (`certificatePem`, `chainPem`), so the
 * public formats are written from it on this machine and the formats that hold the private key
 * cannot be had. Any other certificate (a service whose op 12 takes the SSL id, as our sandbox's
 * default flavour does) is exported by its own id.
 */
export type ExportRoute =
  | { via: 'service'; id: string }
  | { via: 'list'; certificatePem: string; chainPem: string | null }
  | { via: 'none'; reason: string }

export type FormatAvailability =
  | { available: true; via: 'service'; id: string }
  | { available: true; via: 'list' }
  | { available: false; reason: string }

/** The formats that can be written from a listed certificate's public PEM alone. */
export const PUBLIC_EXPORT_FORMATS: readonly ExportFormat[] = ['pem', 'der', 'chain', 'fullchain']

/** Types whose certificates a real deployment's op 12 does not export. */
const TYPES_WITHOUT_EXPORT: Record<string, string> = {
  acme: 'an ACME certificate',
  upload: 'an uploaded certificate',
}

export function exportRouteOf(item: Record<string, unknown>): ExportRoute {
  const linked = item['internalCertId']
  if (typeof linked === 'string' && linked !== '') return { via: 'service', id: linked }
  const type = typeof item['type'] === 'string' ? item['type'] : ''
  const certificatePem = item['certificatePem']
  const chainPem = typeof item['chainPem'] === 'string' ? item['chainPem'] : null
  const unlinkedInternal = type === 'internal' && 'internalCertId' in item
  if (!(type in TYPES_WITHOUT_EXPORT) && !unlinkedInternal) {
    return typeof item['id'] === 'string'
      ? { via: 'service', id: item['id'] }
      : { via: 'none', reason: 'the certificate has no id' }
  }
  if (
    typeof certificatePem === 'string' &&
    certificatePem.includes('-----BEGIN CERTIFICATE-----')
  ) {
    return { via: 'list', certificatePem, chainPem }
  }
  return { via: 'none', reason: `the service listed no certificate PEM for it` }
}

/** Whether `format` can be exported for this certificate, and how; else why not, in words. */
export function formatAvailability(
  item: Record<string, unknown>,
  format: ExportFormat,
): FormatAvailability {
  const route = exportRouteOf(item)
  if (route.via === 'service') return { available: true, via: 'service', id: route.id }
  if (route.via === 'none') return { available: false, reason: `Not available: ${route.reason}` }
  const type = typeof item['type'] === 'string' ? item['type'] : ''
  const what = TYPES_WITHOUT_EXPORT[type] ?? 'an internal certificate not linked to the PKI'
  if (!PUBLIC_EXPORT_FORMATS.includes(format)) {
    return {
      available: false,
      reason: `The service does not export the private key of ${what}: only its public parts (certificate, chain, full chain, DER) can be saved.`,
    }
  }
  if (format === 'chain' && (route.chainPem === null || route.chainPem.trim() === '')) {
    return { available: false, reason: 'The service listed no chain for this certificate.' }
  }
  return { available: true, via: 'list' }
}

export const certificateChannels = {
  /**
   * The cached list at once (filters applied to the cache); never calls the service. With
   * `first`, only that many rows of it when it holds more (the answer's `firstOf` says how many
   * it holds): the screen the app opens on paints them before the whole list is read.
   */
  'certificates.cached': () => ({
    input: profileId.extend({
      filter: certificateFilterSchema.default({}),
      first: firstRowsSchema.optional(),
    }),
    output: certificateListSchema,
  }),
  /**
   * The first screenful of the active profile's cached list (the screen's first filter), for
   * the app opening on the certificates screen: asked for with the app's first calls, before
   * profiles.list has said which profile is active, instead of one round trip after it.
   * `profileId` null: no profile is active (and `list` is null).
   */
  'certificates.firstScreenful': () => ({
    input: z.object({ first: firstRowsSchema }),
    output: activeFirstScreenfulSchema,
  }),
  /**
   * Every page of op 16 with the filter; the cache takes the answer in; returns the cached list
   * (with offline: true and the cached rows when the service cannot be reached).
   */
  'certificates.refresh': () => ({
    input: profileId.extend({ filter: certificateFilterSchema.default({}) }),
    output: certificateListSchema,
  }),
  /** One certificate: every field the service sent (cached), and facts from its PEM. */
  'certificates.details': () => ({
    input: profileId.extend({ id, readPem: z.boolean().default(true) }),
    output: z.object({
      item: z.record(z.string(), z.unknown()).nullable(),
      facts: certificateFactsSchema.nullable(),
      /** Why facts are missing (offline, the export refused...). */
      factsError: bridgeErrorSchema.nullable(),
    }),
  }),
  /** Op 10. */
  'certificates.move': () => ({
    input: profileId.extend({ ids: z.array(id).min(1).max(10_000), folderId: uuid.nullable() }),
    output: z.object({ moved: z.number() }),
  }),
  /** Op 3; parentId null moves the folder to the top level. */
  'certificates.moveFolder': () => ({
    input: profileId.extend({ folderId: uuid, parentId: uuid.nullable() }),
    output: z.object({ folder: z.record(z.string(), z.unknown()) }),
  }),
  /** The local checks of an upload (parse, key match, chain order, expiry); no service call. */
  'certificates.checkUpload': () => ({ input: uploadMaterialSchema, output: uploadCheckSchema }),
  /** Electron: an open dialog run by main; the file stays in main, staged under an id. */
  'certificates.chooseFile': () => ({
    input: z.object({ field: z.enum(['certificatePem', 'privateKeyPem', 'chainPem']) }),
    output: z.object({ stagedId: id, fileName: z.string() }).nullable(),
  }),
  /** Op 7, after the same local checks (refused with their reasons before anything is sent). */
  'certificates.upload': () => ({
    input: profileId.extend(uploadMaterialSchema.shape).extend({
      name: z.string().trim().min(1, 'Enter a name').max(200),
      folderId: uuid.nullable(),
    }),
    output: z.object({ item: z.record(z.string(), z.unknown()) }),
  }),
  /** Op 12, written to disk by main. Only the file's path, size and SHA-256 come back. */
  'certificates.export': () => ({
    input: profileId.extend({
      id,
      format: z.enum(EXPORT_FORMATS),
      passphrase: z.string().max(1024).optional(),
    }),
    output: z
      .object({
        path: z.string(),
        size: z.number(),
        sha256: z.string(),
        transferId: z.string(),
      })
      /** null: the user cancelled the save dialog. */
      .nullable(),
  }),
} as const

export const certificateEvents = {} as const
