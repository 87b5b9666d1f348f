import type { CertificateFilter, CertificateList } from '../../shared/bridge'
import type { BridgeError, CertificateFacts } from '../../shared/bridge'
import { ServiceError } from '../api'
import type { certificateChannels } from '../../shared/bridge/channels/certificates'
import { answersAsJson } from '../bridge/dispatcher'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { createCertificateCache } from '../cache/certificates'
import type { CertificateCacheEntry } from '../cache/certificates'
import { exportCertificateToDisk } from './certificates/export'
import { toCacheEntry } from './certificates/rows'
import { createStagedFiles } from './certificates/staged'
import { checkUpload, factsOfPem } from './certificates/x509'
import type { DeskContext } from './context'
import {
  bridgeErrorOf,
  isConnectivityError,
  recordActivity,
  requireProfile,
  withProfileClient,
} from './context'

/*
 * The certificates screen (ops 16, 10, 3), upload (op 7) and export (op 12). The list opens
 * from the SQLite cache, then every page is fetched from the service; offline, the cache answers
 * with the same filters. See src/main/cache/certificates.ts for how a filtered refresh is merged.
 */

/** Asked per page; the service may cap it (its `meta.limit` then says so). */
export const PAGE_LIMIT = 500
/** `{"rows":`: the start of a cached list written as JSON. */
const ROWS_OPENING = Buffer.from('{"rows":')
/** A bound on paging, should a service never send a short page. */
const MAX_PAGES = 2_000

export function certificateHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, keyof typeof certificateChannels> {
  const certificates = createCertificateCache(context.cache)
  const staged = createStagedFiles()
  context.onClose(() => staged.clear())

  /** The cached list without its rows (those are read either as objects or as JSON bytes). */
  function listBesideRows(profileId: string, error: BridgeError | null) {
    return {
      folders: certificates.folders(profileId),
      fetchedAt: certificates.fetchedAt(profileId),
      offline: error !== null || context.connectivity.offline(profileId),
      error: error ?? context.connectivity.lastError(profileId),
    }
  }

  function cachedList(
    profileId: string,
    filter: CertificateFilter,
    error: BridgeError | null,
  ): CertificateList {
    return { rows: certificates.list(profileId, filter), ...listBesideRows(profileId, error) }
  }

  /** cachedList as JSON, the rows' bytes as SQLite joined them (see Handler in dispatcher.ts). */
  function cachedListJson(
    profileId: string,
    filter: CertificateFilter,
    error: BridgeError | null,
  ): Buffer {
    // `{"folders":…}` without its `{` (four fields, never empty): the fields after the rows.
    const rest = JSON.stringify(listBesideRows(profileId, error)).slice(1)
    return Buffer.concat([
      ROWS_OPENING,
      certificates.listJson(profileId, filter),
      Buffer.from(`,${rest}`),
    ])
  }

  /** Every page from the service into the cache, then the answer; offline, the cache's. */
  async function refreshed<T>(
    profileId: string,
    filter: CertificateFilter,
    answer: (error: BridgeError | null) => T,
  ): Promise<T> {
    try {
      const entries = await withProfileClient(context, profileId, (client) =>
        fetchAllPages(filter, (query) => client.call('listCertificates', { query })),
      )
      certificates.replace(profileId, filter, entries, Date.now())
      return answer(null)
    } catch (error) {
      if (!isConnectivityError(error)) throw error
      return answer(bridgeErrorOf(context, error))
    }
  }

  return {
    'certificates.cached': answersAsJson(
      async ({ profileId, filter }) => {
        requireProfile(context, profileId)
        return cachedList(profileId, filter, null)
      },
      async ({ profileId, filter }) => {
        requireProfile(context, profileId)
        return cachedListJson(profileId, filter, null)
      },
    ),

    'certificates.refresh': answersAsJson(
      ({ profileId, filter }) =>
        refreshed(profileId, filter, (error) => cachedList(profileId, filter, error)),
      ({ profileId, filter }) =>
        refreshed(profileId, filter, (error) => cachedListJson(profileId, filter, error)),
    ),

    async 'certificates.details'({ profileId, id, readPem }) {
      requireProfile(context, profileId)
      const item = certificates.item(profileId, id)
      let facts: CertificateFacts | null = null
      let factsError: BridgeError | null = null
      if (readPem && !context.connectivity.offline(profileId)) {
        // The public certificate only (format pem): no key material is asked for.
        try {
          const file = await withProfileClient(context, profileId, (client) =>
            client.exportCertificateFile(id, { format: 'pem' }),
          )
          facts = factsOfPem(file.bytes.toString('utf8'))
          if (facts === null) {
            factsError = {
              code: 'BAD_RESPONSE',
              message: 'The PEM export held no readable certificate',
            }
          }
        } catch (error) {
          factsError = bridgeErrorOf(context, error)
        }
      }
      return { item, facts, factsError }
    },

    async 'certificates.move'({ profileId, ids, folderId }) {
      const profile = requireProfile(context, profileId)
      const target = ids.length === 1 ? (ids[0] ?? null) : `${ids.length} certificates`
      try {
        await withProfileClient(context, profileId, (client) =>
          client.call('moveCertificates', { body: { ids, folderId } }),
        )
      } catch (error) {
        recordActivity(context, profile, 'moveCertificates', target, { error })
        throw error
      }
      recordActivity(context, profile, 'moveCertificates', target, {
        message: `Moved ${ids.length} to ${folderId ?? 'no folder'}`,
      })
      return { moved: ids.length }
    },

    async 'certificates.moveFolder'({ profileId, folderId, parentId }) {
      const profile = requireProfile(context, profileId)
      try {
        const answer = await withProfileClient(context, profileId, (client) =>
          client.call('moveCertificateFolder', { params: { id: folderId }, body: { parentId } }),
        )
        recordActivity(context, profile, 'moveCertificateFolder', folderId, {
          message: `Moved under ${parentId ?? 'the top level'}`,
        })
        return { folder: answer.data }
      } catch (error) {
        recordActivity(context, profile, 'moveCertificateFolder', folderId, { error })
        throw error
      }
    },

    async 'certificates.checkUpload'(material) {
      return checkUpload({
        certificatePem: staged.read(material.certificate),
        privateKeyPem: staged.read(material.privateKey),
        chainPem: material.chain === undefined ? undefined : staged.read(material.chain),
      })
    },

    async 'certificates.chooseFile'({ field }) {
      if (context.desktop === null) {
        throw new ServiceError(
          'UNPROCESSABLE_ENTITY',
          'No open dialog here (web mode reads files in the page): drop the file or paste it',
        )
      }
      const what =
        field === 'privateKeyPem' ? 'private key' : field === 'chainPem' ? 'chain' : 'certificate'
      const file = await context.desktop.chooseOpenFile({
        title: `Choose the ${what} (PEM)`,
        filters: [{ name: 'PEM', extensions: ['pem', 'crt', 'cer', 'key', 'txt'] }],
      })
      return file === null ? null : staged.stage(file)
    },

    async 'certificates.upload'(input) {
      const profile = requireProfile(context, input.profileId)
      const texts = {
        certificatePem: staged.read(input.certificate),
        privateKeyPem: staged.read(input.privateKey),
        chainPem: input.chain === undefined ? undefined : staged.read(input.chain),
      }
      // The renderer showed these checks; main runs them again, since it trusts no caller.
      const check = checkUpload(texts)
      if (check.problems.length > 0) {
        throw new ServiceError(
          'VALIDATION_ERROR',
          'The certificate was not sent: fix the fields marked',
          {
            details: check.problems.map((problem) => ({
              path: [problem.field],
              message: problem.message,
            })),
          },
        )
      }
      const chainPem = texts.chainPem?.trim() === '' ? undefined : texts.chainPem
      try {
        const answer = await withProfileClient(context, input.profileId, (client) =>
          client.call('uploadCertificate', {
            body: {
              name: input.name,
              folderId: input.folderId,
              certificatePem: texts.certificatePem,
              privateKeyPem: texts.privateKeyPem,
              ...(chainPem === undefined ? {} : { chainPem }),
            },
          }),
        )
        const uploadedId = typeof answer.data.id === 'string' ? answer.data.id : null
        recordActivity(context, profile, 'uploadCertificate', uploadedId, {
          message: `Uploaded “${input.name}”`,
        })
        // Shown at once; the next refresh brings the service's full view of it.
        const entry = toCacheEntry(answer.data)
        if (entry !== null) certificates.put(input.profileId, [entry])
        for (const source of [input.certificate, input.privateKey, input.chain]) staged.drop(source)
        return { item: answer.data }
      } catch (error) {
        recordActivity(context, profile, 'uploadCertificate', null, { error })
        throw error
      }
    },

    async 'certificates.export'(input) {
      return exportCertificateToDisk(context, certificates, input)
    },
  }
}

type ListAnswer = { data: unknown[]; meta?: { page?: unknown; limit?: unknown; total?: unknown } }

/**
 * Pages of op 16 from 1 until done: `meta.total` says when (when the service sends it), else a
 * page shorter than the page size ends the list. The page size is `meta.limit` if the service
 * reports one (it may cap what we asked for).
 */
export async function fetchAllPages(
  filter: CertificateFilter,
  listPage: (query: Record<string, unknown>) => Promise<ListAnswer>,
): Promise<CertificateCacheEntry[]> {
  const byId = new Map<string, CertificateCacheEntry>()
  const query: Record<string, unknown> = { limit: PAGE_LIMIT }
  if (filter.type) query['type'] = filter.type
  if (filter.status) query['status'] = filter.status
  if (filter.search) query['search'] = filter.search
  query['showSystem'] = filter.showSystem === true
  let seen = 0
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const answer = await listPage({ ...query, page })
    const before = byId.size
    for (const item of answer.data) {
      const entry = toCacheEntry(item)
      if (entry !== null) byId.set(entry.row.id, entry)
    }
    seen += answer.data.length
    // A service that ignores `page` sends the same rows again: nothing new, the list is done.
    if (page > 1 && byId.size === before) break
    const meta = answer.meta
    const pageSize = typeof meta?.limit === 'number' && meta.limit > 0 ? meta.limit : PAGE_LIMIT
    if (typeof meta?.total === 'number') {
      if (seen >= meta.total || answer.data.length === 0) break
    } else if (answer.data.length < pageSize) {
      break
    }
  }
  return [...byId.values()]
}
