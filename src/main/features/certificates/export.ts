import { mkdir, stat } from 'node:fs/promises'
import path from 'node:path'
import type { ExportFormat } from '../../../shared/api'
import { APP_ERROR_CODES, EXPORT_FORMAT_INFO } from '../../../shared/bridge'
import type { ChannelOutput } from '../../../shared/bridge'
import { ServiceError } from '../../api'
import type { CertificateCache } from '../../cache/certificates'
import { defaultSettings } from '../../settings'
import { fileSystemError, safeFileName, writeFileAtomic } from '../../transfers'
import type { Collision } from '../../transfers'
import type { DeskContext } from '../context'
import { bridgeErrorOf, recordActivity, requireProfile, withProfileClient } from '../context'

/*
 * Op 12 to disk. Main asks the service and writes the file; the renderer gets back the path,
 * size and SHA-256, never the bytes (a pkcs12, jks, private-key or pem-bundle holds the private
 * key). Written atomically (temp file beside the target, fsync, rename), mode 0600, recorded in
 * the transfers log without the passphrase.
 *
 * Where: Electron asks with the save dialog (which already asked about replacing a file);
 * web mode saves into the downloads folder of Settings, numbering the name on a collision.
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

  const target = await chooseTarget(context, defaultName, info.label)
  if (target === null) return null

  const transfer = context.transfers.start({
    profileId: profile.id,
    profileName: profile.name,
    kind: 'certificate',
    label: `${baseName} (${input.format})`,
    // Never the passphrase: only whether one protects the file.
    source: { certificateId: input.id, format: input.format, encrypted: passphrase !== undefined },
    destination: target.dialogPath,
  })
  try {
    const file = await withProfileClient(context, profile.id, (client) =>
      client.exportCertificateFile(input.id, {
        format: input.format,
        ...(passphrase === undefined ? {} : { passphrase }),
      }),
    )
    const written = await writeFileAtomic(target.folder, target.name, file.bytes, {
      collision: target.collision,
      fallbackName,
    })
    context.transfers.finish(transfer.id, {
      state: 'completed',
      destination: written.path,
      bytesDone: written.size,
      sha256: written.sha256,
    })
    recordActivity(context, profile, 'exportCertificate', input.id, {
      message: `${input.format} saved to ${written.path}`,
    })
    return {
      path: written.path,
      size: written.size,
      sha256: written.sha256,
      transferId: transfer.id,
    }
  } catch (error) {
    const bridgeError = bridgeErrorOf(context, error)
    context.transfers.finish(transfer.id, {
      state: bridgeError.code === APP_ERROR_CODES.CANCELLED ? 'cancelled' : 'failed',
      errorCode: bridgeError.code,
      errorMessage: bridgeError.message,
    })
    throw error
  }
}

interface Target {
  folder: string
  name: string
  collision: Collision
  /** The path the save dialog chose, known before the transfer starts. */
  dialogPath: string | null
}

async function chooseTarget(
  context: DeskContext,
  defaultName: string,
  label: string,
): Promise<Target | null> {
  if (context.desktop !== null) {
    const extension = path.extname(defaultName).slice(1)
    const chosen = await context.desktop.chooseSavePath({
      title: `Save ${label}`,
      defaultName,
      ...(extension === '' ? {} : { filters: [{ name: label, extensions: [extension] }] }),
    })
    if (chosen === null) return null
    // The dialog asked before replacing, so replacing is what the user agreed to.
    return {
      folder: path.dirname(chosen),
      name: path.basename(chosen),
      collision: 'replace',
      dialogPath: chosen,
    }
  }
  const folder = context.settings.get().downloadsDir
  await ensureDownloadsFolder(folder)
  return { folder, name: defaultName, collision: 'number', dialogPath: null }
}

/** The default Downloads folder is made when missing; a folder the user chose is not. */
async function ensureDownloadsFolder(folder: string): Promise<void> {
  const info = await stat(folder).catch(() => null)
  if (info?.isDirectory()) return
  if (info === null && path.resolve(folder) === path.resolve(defaultSettings().downloadsDir)) {
    await mkdir(folder, { recursive: true }).catch((error: unknown) => {
      throw fileSystemError(error, path.dirname(folder))
    })
    return
  }
  throw new ServiceError(
    APP_ERROR_CODES.NOT_WRITABLE,
    `The downloads folder ${folder} ${info === null ? 'does not exist' : 'is not a folder'}: choose another one in Settings.`,
    { details: [{ path: ['downloadsDir'], message: 'No such folder' }] },
  )
}
