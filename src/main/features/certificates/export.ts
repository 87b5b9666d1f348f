import path from 'node:path'
import type { ExportFormat } from '../../../shared/api'
import { EXPORT_FORMAT_INFO } from '../../../shared/bridge'
import type { ChannelOutput } from '../../../shared/bridge'
import { ServiceError } from '../../api'
import type { CertificateCache } from '../../cache/certificates'
import { safeFileName } from '../../transfers'
import type { DeskContext } from '../context'
import { recordActivity, requireProfile, withProfileClient } from '../context'
import { chooseSaveTarget, saveToDisk } from '../save-to-disk'

/*
 * Op 12 to disk. Main asks the service and writes the file; the renderer gets back the path,
 * size and SHA-256, never the bytes (a pkcs12, jks, private-key or pem-bundle holds the private
 * key). Written atomically (see ../save-to-disk.ts), mode 0600, recorded in the transfers log without the
 * passphrase. Web mode saves into the downloads folder of Settings, made when it is the default.
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

  // The certificate's name as cached (what the user sees), else its id; made safe for disk.
  const cachedName = certificates.item(input.profileId, input.id)?.['name']
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
      const file = await withProfileClient(context, profile.id, (client) =>
        client.exportCertificateFile(input.id, {
          format: input.format,
          ...(passphrase === undefined ? {} : { passphrase }),
        }),
      )
      return file.bytes
    },
    { fallbackName },
  )
  recordActivity(context, profile, 'exportCertificate', input.id, {
    message: `${input.format} saved to ${saved.path}`,
  })
  return { path: saved.path, size: saved.size, sha256: saved.sha256, transferId: saved.transferId }
}
