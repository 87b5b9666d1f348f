import path from 'node:path'
import type { ExportFormat } from '../../../shared/api'
import { EXPORT_FORMAT_INFO, formatAvailability } from '../../../shared/bridge'
import type { ChannelOutput, FormatAvailability } from '../../../shared/bridge'
import { ServiceError } from '../../api'
import type { ServiceClient } from '../../api'
import {
  checkedRawChunks,
  exportHeadOf,
  fileOfJsonAnswer,
  savedExportName,
} from '../../api/export-stream'
import type { CertificateCache } from '../../cache/certificates'
import { safeFileName } from '../../transfers'
import type { DeskContext } from '../context'
import { recordActivity, requireProfile, withProfileClient } from '../context'
import { chooseSaveTarget, saveToDisk } from '../save-to-disk'
import type { SaveTarget } from '../save-to-disk'
import { listedCertificateProblem, listedExportBytes, listedFingerprint } from './listed-export'

/*
 * Op 12 to disk. Main asks the service and writes the file; the renderer gets back the path,
 * size and SHA-256, never the bytes (a pkcs12, jks, private-key or pem-bundle holds the private
 * key). Written atomically (see ../save-to-disk.ts), mode 0600, recorded in the transfers log without the
 * passphrase. Web mode saves into the downloads folder of Settings, made when it is the default.
 *
 * Which certificate op 12 is asked for, and whether at all, follows the listed certificate
 * (formatAvailability in the bridge contract): a real deployment exports its PKI certificate
 * (`internalCertId`) for an internal one, and nothing for acme and upload ones, whose public
 * parts are written here from the PEM the list carried (listed-export.ts). The service's answer,
 * the file itself or the JSON form, is streamed to disk as it arrives (api/export-stream.ts).
 */

export interface CertificateExportInput {
  profileId: string
  id: string
  format: ExportFormat
  passphrase?: string | undefined
}

type ExportOutcome = ChannelOutput<'certificates.export'>

export async function exportCertificateToDisk(
  context: DeskContext,
  certificates: CertificateCache,
  input: CertificateExportInput,
): Promise<ExportOutcome> {
  const profile = requireProfile(context, input.profileId)
  const info = EXPORT_FORMAT_INFO[input.format]
  const passphrase =
    info.passphrase === 'none' || input.passphrase === '' ? undefined : input.passphrase
  if (info.passphrase === 'required' && passphrase === undefined) {
    throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
      details: [{ path: ['passphrase'], message: `A ${info.label} needs a passphrase` }],
    })
  }

  const item = certificates.item(input.profileId, input.id)
  // Not cached (a CLI run that never listed): asked of the service by the id given, as before.
  const availability: FormatAvailability =
    item === null
      ? { available: true, via: 'service', id: input.id }
      : formatAvailability(item, input.format)
  if (!availability.available) {
    throw new ServiceError('UNPROCESSABLE_ENTITY', availability.reason, {
      details: [{ path: ['format'], message: availability.reason }],
    })
  }

  // The certificate's name as cached (what the user sees), else its id; made safe for disk.
  const cachedName = item?.['name']
  const baseName =
    typeof cachedName === 'string' && cachedName.trim() !== '' ? cachedName : input.id
  const fallbackName = `certificate${info.extension}`
  const defaultName = safeFileName(`${baseName}${info.extension}`, fallbackName)

  // `-chain.pem` filters as `pem`: the dialog's filter is the name's last extension.
  const extension = path.extname(defaultName).slice(1)
  const target = await chooseSaveTarget(context, {
    title: `Save ${info.label}`,
    defaultName,
    filter: extension === '' ? null : { name: info.label, extension },
  })
  if (target === null) return null

  const saved = await saveToDisk(
    context,
    target,
    {
      profileId: profile.id,
      profileName: profile.name,
      kind: 'certificate',
      label: `${baseName} (${input.format})`,
      // Never the passphrase: only whether one protects the file.
      source: {
        certificateId: input.id,
        format: input.format,
        encrypted: passphrase !== undefined,
      },
    },
    async () => {
      if (availability.via === 'list') return listedExportBytes(item ?? {}, input.format)
      return withProfileClient(context, profile.id, (client) =>
        streamedExport(client, availability.id, input.format, passphrase, target, {
          listed: item === null ? null : listedFingerprint(item),
        }),
      )
    },
    { fallbackName },
  )
  const from =
    availability.via === 'list'
      ? ' from the listed PEM'
      : availability.id === input.id
        ? ''
        : ` (PKI certificate ${availability.id})`
  recordActivity(context, profile, 'exportCertificate', input.id, {
    message: `${input.format}${from} saved to ${saved.path}`,
  })
  return { path: saved.path, size: saved.size, sha256: saved.sha256, transferId: saved.transferId }
}

/**
 * Op 12's answer as the content of `target`: the raw file's chunks as they arrive (checked whole
 * at their end), or the JSON form's decoded bytes. Resolves once the headers are in, with what
 * the writer reads; the exchange stays open until the writer has read the body. The name the
 * file takes follows what was served (a ZIP is saved as .zip: export-stream.ts), so `target`'s
 * name is set here, before the writer opens its temp file in the target folder. Where no dialog
 * asked the user for a name (web mode), the raw file's name is the one its Content-Disposition
 * gives (a real deployment names it after the PKI certificate's common name), sanitised, with
 * the format's extension; without one, the certificate's name stays.
 */
function streamedExport(
  client: ServiceClient,
  id: string,
  format: ExportFormat,
  passphrase: string | undefined,
  target: SaveTarget,
  checks: { listed: string | null },
): Promise<Buffer | AsyncIterable<Uint8Array>> {
  return new Promise((resolve, reject) => {
    client
      .streamCertificateExport(
        id,
        { format, ...(passphrase === undefined ? {} : { passphrase }) },
        async (answer) => {
          const head = exportHeadOf(answer.headers)
          if (head.json) {
            const file = await fileOfJsonAnswer(answer, format)
            target.name = savedExportName(target.name, format, file.head)
            const problem = listedCertificateProblem(format, file.bytes, checks.listed)
            if (problem !== null)
              throw new ServiceError('BAD_RESPONSE', `Nothing was saved: ${problem}`)
            resolve(file.bytes)
            return
          }
          target.name =
            target.dialogPath === null && head.filename !== null
              ? (servedExportName(head.filename, format, head.zip) ??
                savedExportName(target.name, format, head))
              : savedExportName(target.name, format, head)
          // The writer pulls the chunks; this exchange ends when it stops pulling, either way.
          let read: () => void = () => undefined
          const done = new Promise<void>((settle) => (read = settle))
          resolve(
            (async function* () {
              try {
                yield* checkedRawChunks(answer, format, head, (bytes) =>
                  listedCertificateProblem(format, bytes, checks.listed),
                )
              } finally {
                read()
              }
            })(),
          )
          await done
        },
      )
      .catch(reject)
  })
}

/**
 * The name a served file takes on disk: its stem as the service named it (any folder part and
 * the extension dropped: the format's usual one, spelt `-chain.pem` or `.chain.pem`, else the
 * last), the format's extension (`.zip` for a ZIP), made safe for disk. Null when nothing of the
 * service's name is left to use.
 */
export function servedExportName(
  served: string,
  format: ExportFormat,
  zip: boolean,
): string | null {
  const last = (served.split(/[/\\]/).pop() ?? '').trim()
  const usual = EXPORT_FORMAT_INFO[format].extension
  const usualPattern = new RegExp(`${usual.replace(/^-/, '[-.]').replace(/\./g, '\\.')}$`, 'i')
  const stem = (
    usualPattern.test(last) ? last.replace(usualPattern, '') : last.replace(/\.[^.]*$/, '')
  )
    .replace(/\s+/g, ' ')
    .trim()
  if (stem === '' || /^\.+$/.test(stem)) return null
  const extension = zip ? '.zip' : usual
  return safeFileName(`${stem}${extension}`, `certificate${extension}`)
}
