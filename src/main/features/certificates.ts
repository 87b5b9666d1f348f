import type { CertificateFilter, CertificateList, ListCompleteness } from '../../shared/bridge'
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
/** A bound on paging, should a service never send an empty page (or nothing new). */
export const MAX_PAGES = 2_000

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
      completeness: certificates.completeness(profileId),
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
    // `{"folders":…}` without its `{` (five fields, never empty): the fields after the rows.
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
      const { entries, completeness } = await withProfileClient(context, profileId, (client) =>
        fetchAllPages(filter, (query) => client.call('listCertificates', { query })),
      )
      certificates.replace(profileId, filter, entries, Date.now(), completeness)
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

/** What the walk over op 16's pages brought, and why it may be short of the whole list. */
export interface AllPages {
  entries: CertificateCacheEntry[]
  completeness: ListCompleteness | null
}

/** What ended the walk: each is proof the list is done, except `bound`. */
type WalkEnd = 'empty' | 'repeat' | 'total' | 'short' | 'bound'

const END_WORDS: Record<Exclude<WalkEnd, 'bound'>, string> = {
  empty: 'the service stopped answering pages',
  repeat: 'the service sent the same certificates again',
  total: 'some came twice (the list changed while it was read)',
  short: 'the service sent a page shorter than its own page size',
}

/**
 * Pages of op 16 from 1 until one proves the list is done: an empty page, a page that brings
 * nothing new (a service that ignores `page`), `meta.total` reached, or (with no total) a page
 * shorter than the `meta.limit` the service reported. A page shorter than the size *asked*
 * proves nothing without `meta` (a service may cap the size silently), so the walk goes on.
 * The result says when the walk stopped at `maxPages` or `meta.total` disagrees with what
 * arrived: the screen must not show a part as the whole.
 */
export async function fetchAllPages(
  filter: CertificateFilter,
  listPage: (query: Record<string, unknown>) => Promise<ListAnswer>,
  { maxPages = MAX_PAGES }: { maxPages?: number } = {},
): Promise<AllPages> {
  const byId = new Map<string, CertificateCacheEntry>()
  const query = pageQuery(filter)
  let seen = 0
  let total: number | null = null
  let pages = 0
  let end: WalkEnd = 'bound'
  while (pages < maxPages) {
    pages += 1
    const answer = await listPage({ ...query, page: pages })
    const before = byId.size
    for (const item of answer.data) {
      const entry = toCacheEntry(item)
      if (entry !== null) byId.set(entry.row.id, entry)
    }
    seen += answer.data.length
    total = countOf(answer.meta?.total) ?? total
    const ended = endOf({
      rows: answer.data.length,
      broughtNew: pages === 1 || byId.size > before,
      seen,
      total,
      reportedLimit: countOf(answer.meta?.limit),
    })
    if (ended !== null) {
      end = ended
      break
    }
  }
  const entries = [...byId.values()]
  return { entries, completeness: completenessOf(end, entries.length, total, pages) }
}

/** What a page proves about the end of the list; null: ask for the next page. */
function endOf(page: {
  rows: number
  broughtNew: boolean
  seen: number
  total: number | null
  reportedLimit: number | null
}): Exclude<WalkEnd, 'bound'> | null {
  if (page.rows === 0) return 'empty'
  if (!page.broughtNew) return 'repeat'
  // A total still ahead outweighs a short page: walk on until it, or an empty page.
  if (page.total !== null) return page.seen >= page.total ? 'total' : null
  if (page.reportedLimit !== null && page.rows < page.reportedLimit) return 'short'
  return null
}

function pageQuery(filter: CertificateFilter): Record<string, unknown> {
  const query: Record<string, unknown> = { limit: PAGE_LIMIT }
  if (filter.type) query['type'] = filter.type
  if (filter.status) query['status'] = filter.status
  if (filter.search) query['search'] = filter.search
  query['showSystem'] = filter.showSystem === true
  return query
}

/** A count the service reported: a non-negative integer, else nothing. */
function countOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}

function completenessOf(
  end: WalkEnd,
  received: number,
  total: number | null,
  pages: number,
): ListCompleteness | null {
  const count = (value: number) => value.toLocaleString('en-US')
  if (end === 'bound') {
    // The service was still sending new certificates when the app stopped asking.
    const expected = Math.max(total ?? 0, received + 1)
    return {
      reason: 'page-bound',
      received,
      expected,
      pages,
      message:
        `${count(received)} of at least ${count(expected)}: the app stopped after ` +
        `${count(pages)} pages while the service was still sending new certificates`,
    }
  }
  if (total === null || total === received) return null
  const message =
    received < total
      ? `${count(received)} of at least ${count(total)}: ${END_WORDS[end]}`
      : `${count(received)} arrived where the service's total said ${count(total)}: ` +
        'the list changed while it was read'
  return { reason: 'total-mismatch', received, expected: total, pages, message }
}
