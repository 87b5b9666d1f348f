import type { CertificateFilter, CertificateList } from '../../../shared/bridge'
import { formatAvailability, OPENING_CERTIFICATE_FILTER } from '../../../shared/bridge'
import type { BridgeError, CertificateFacts } from '../../../shared/bridge'
import type { certificateChannels } from '../../../shared/bridge/channels/certificates'
import { isConnectivityError } from '../../../shared/bridge/connectivity'
import { ServiceError } from '../../api'
import { answersAsJson, OK_RESULT_OPENING, OkResultJson } from '../../bridge/dispatcher'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import { createCertificateCache, type FirstRows } from '../../cache/certificates'
import { createCertificatePageLimits } from '../../cache/certificate-page-limits'
import type { DeskContext } from '../context'
import { bridgeErrorOf, requireProfile, withProfileClient } from '../context'
import { listWorkerOf } from '../lists'
import { recordedCall } from '../recorded'
import { exportCertificateToDisk } from './export'
import { createNameRanking } from './name-order'
import { PAGE_LIMIT, walkPages } from './paging'
import { toCacheEntry } from './rows'
import { createStagedFiles } from './staged'
import { checkUpload, factsOfPem } from './x509'

export {
  fetchAllPages,
  MAX_BYTES,
  MAX_PAGES,
  MAX_ROWS,
  PAGE_LIMIT,
  pageInfoOf,
  setWalkBoundsForTests,
  walkPages,
} from './paging'
export type { AllPages, PageInfo, PageSummary } from './paging'

/*
 * The certificates screen (ops 16, 10, 3), upload (op 7) and export (op 12). The list opens
 * from the SQLite cache, then every page is fetched from the service; offline, the cache answers
 * with the same filters. See src/main/cache/certificates.ts for how a filtered refresh is merged.
 */

/** `{"ok":true,"value":{"rows":`: the start of a cached list's Result written as JSON. */
const ROWS_OPENING = Buffer.from(`${OK_RESULT_OPENING}{"rows":`)

export function certificateHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, keyof typeof certificateChannels> {
  const certificates = createCertificateCache(context.cache)
  const pageLimits = createCertificatePageLimits(context.cache)
  const ranking = createNameRanking(context, certificates)
  const staged = createStagedFiles()
  context.onClose(() => staged.clear())

  /** The cached list without its rows (those are read either as objects or as JSON bytes). */
  function listBesideRows(profileId: string, filter: CertificateFilter, error: BridgeError | null) {
    return {
      systemHidden: systemHiddenBy(profileId, filter),
      folders: certificates.folders(profileId),
      fetchedAt: certificates.fetchedAt(profileId),
      completeness: certificates.completeness(profileId),
      offline: error !== null || context.connectivity.offline(profileId),
      error: error ?? context.connectivity.lastError(profileId),
    }
  }

  /** The cached system certificates the filter would show but for showSystem being off. */
  function systemHiddenBy(profileId: string, filter: CertificateFilter): number {
    if (filter.showSystem === true) return 0
    return (
      certificates.count(profileId, { ...filter, showSystem: true }) -
      certificates.count(profileId, filter)
    )
  }

  function cachedList(
    profileId: string,
    filter: CertificateFilter,
    error: BridgeError | null,
  ): CertificateList {
    return {
      rows: certificates.list(profileId, filter),
      ...listBesideRows(profileId, filter, error),
    }
  }

  /**
   * The list's ok Result as JSON, its rows' bytes as SQLite joined them, copied once (see
   * Handler and OkResultJson in dispatcher.ts).
   */
  function listJsonOf(
    profileId: string,
    filter: CertificateFilter,
    rows: Buffer,
    error: BridgeError | null,
    firstOf?: number,
  ): OkResultJson {
    // `{"systemHidden":…}` without its `{` (six fields or seven, never empty): the fields after the
    // rows.
    const beside = listBesideRows(profileId, filter, error)
    const rest = JSON.stringify(firstOf === undefined ? beside : { ...beside, firstOf }).slice(1)
    return new OkResultJson(Buffer.concat([ROWS_OPENING, rows, Buffer.from(`,${rest}}`)]))
  }

  /** The cached list, or its first rows only when it holds more than `first` asks for. */
  function firstScreenfulOf(
    profileId: string,
    filter: CertificateFilter,
    first: FirstRows,
  ): CertificateList {
    const window = firstRowsOf(profileId, filter, first)
    if (window === null) return cachedList(profileId, filter, null)
    return {
      rows: rowsOf(window.rows),
      firstOf: window.of,
      ...listBesideRows(profileId, filter, null),
    }
  }

  /** The first screenful asked for, when the list holds more (null: answer with all of it). */
  function firstRowsOf(profileId: string, filter: CertificateFilter, first?: FirstRows) {
    if (first === undefined) return null
    const window = certificates.firstRowsJson(profileId, filter, first)
    ranking.readIn(profileId, first.locale)
    return window
  }

  /**
   * Every page from the service into the cache, then the answer; offline, the cache's. The
   * pages are read, checked and written in the list worker (main forwards their bytes), and the
   * answer's rows come back from it as JSON bytes: 10,000 certificates took main's loop ~1 s
   * in one transaction (docs/ARCHITECTURE-NOTES.md, "Off main's loop: worker threads").
   */
  async function refreshed<T>(
    profileId: string,
    filter: CertificateFilter,
    answer: (error: BridgeError | null, rows: Buffer) => T,
  ): Promise<T> {
    const worker = listWorkerOf(context)
    const walk = worker.certificateWalk()
    try {
      const { completeness } = await withProfileClient(context, profileId, (client) =>
        walkPages(
          filter,
          async (query) => {
            const page = walk.page()
            await client.callRows('listCertificates', page.sink, { query })
            return page.summary()
          },
          {
            // The size this profile's service took last time, so no refusal is met again.
            pageLimit: pageLimits.get(profileId) ?? PAGE_LIMIT,
            onPageLimitLearned: (limit) => pageLimits.put(profileId, limit),
          },
        ),
      )
      await walk.store(profileId, filter, Date.now(), completeness)
      certificates.replacedElsewhere(profileId)
      ranking.rewritten(profileId)
      context.knownObjects.recordedElsewhere(profileId)
      return answer(null, await worker.certificatesJson(profileId, filter))
    } catch (error) {
      walk.discard()
      if (!isConnectivityError(error)) throw error
      return answer(bridgeErrorOf(context, error), certificates.listJson(profileId, filter))
    }
  }

  return {
    'certificates.cached': answersAsJson(
      async ({ profileId, filter, first }) => {
        requireProfile(context, profileId)
        return first === undefined
          ? cachedList(profileId, filter, null)
          : firstScreenfulOf(profileId, filter, first)
      },
      async ({ profileId, filter, first }) => {
        requireProfile(context, profileId)
        const window = firstRowsOf(profileId, filter, first)
        if (window === null) {
          return listJsonOf(profileId, filter, certificates.listJson(profileId, filter), null)
        }
        return listJsonOf(profileId, filter, window.rows, null, window.of)
      },
    ),

    async 'certificates.firstScreenful'({ first }) {
      const profileId = context.profiles.activeId()
      if (profileId === null) return { profileId: null, list: null }
      return { profileId, list: firstScreenfulOf(profileId, OPENING_CERTIFICATE_FILTER, first) }
    },

    'certificates.refresh': answersAsJson(
      ({ profileId, filter }) =>
        refreshed(profileId, filter, (error, rows) => ({
          rows: rowsOf(rows),
          ...listBesideRows(profileId, filter, error),
        })),
      ({ profileId, filter }) =>
        refreshed(profileId, filter, (error, rows) => listJsonOf(profileId, filter, rows, error)),
    ),

    async 'certificates.details'({ profileId, id, readPem }) {
      requireProfile(context, profileId)
      const item = certificates.item(profileId, id)
      let facts: CertificateFacts | null = null
      let factsError: BridgeError | null = null
      // The PEM the list carried (a real deployment's list does), else the service's pem export
      // of the certificate op 12 takes (an internal one's PKI certificate: formatAvailability).
      const pem = item === null ? null : formatAvailability(item, 'pem')
      const listedPem = item?.['certificatePem']
      if (
        readPem &&
        pem?.available === true &&
        pem.via === 'list' &&
        typeof listedPem === 'string'
      ) {
        facts = factsOfPem(listedPem)
        if (facts === null) {
          factsError = {
            code: 'BAD_RESPONSE',
            message: 'The listed PEM held no readable certificate',
          }
        }
      } else if (readPem && !context.connectivity.offline(profileId)) {
        // The public certificate only (format pem): no key material is asked for.
        const exportId = pem?.available === true && pem.via === 'service' ? pem.id : id
        try {
          const file = await withProfileClient(context, profileId, (client) =>
            client.exportCertificateFile(exportId, { format: 'pem' }),
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
      const target = ids.length === 1 ? (ids[0] ?? null) : `${ids.length} certificates`
      await recordedCall(context, profileId, 'moveCertificates', {
        input: { body: { ids, folderId } },
        target,
        describe: () => `Moved ${ids.length} to ${folderId ?? 'no folder'}`,
      })
      return { moved: ids.length }
    },

    async 'certificates.moveFolder'({ profileId, folderId, parentId }) {
      const answer = await recordedCall(context, profileId, 'moveCertificateFolder', {
        input: { params: { id: folderId }, body: { parentId } },
        target: folderId,
        describe: () => `Moved under ${parentId ?? 'the top level'}`,
      })
      return { folder: answer.data }
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
      requireProfile(context, input.profileId)
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
      const answer = await recordedCall(context, input.profileId, 'uploadCertificate', {
        input: {
          body: {
            name: input.name,
            folderId: input.folderId,
            certificatePem: texts.certificatePem,
            privateKeyPem: texts.privateKeyPem,
            ...(chainPem === undefined ? {} : { chainPem }),
          },
        },
        target: (uploaded) => (typeof uploaded.data.id === 'string' ? uploaded.data.id : null),
        describe: () => `Uploaded “${input.name}”`,
      })
      // Shown at once; the next refresh brings the service's full view of it.
      const entry = toCacheEntry(answer.data)
      if (entry !== null) certificates.put(input.profileId, [entry])
      for (const source of [input.certificate, input.privateKey, input.chain]) staged.drop(source)
      return { item: answer.data }
    },

    async 'certificates.export'(input) {
      return exportCertificateToDisk(context, certificates, input)
    },
  }
}

/** Rows the cache joined as a JSON array, as objects (the renderer checks each on arrival). */
function rowsOf(json: Buffer): CertificateList['rows'] {
  const rows: unknown = JSON.parse(json.toString('utf8'))
  return Array.isArray(rows) ? (rows as CertificateList['rows']) : []
}
