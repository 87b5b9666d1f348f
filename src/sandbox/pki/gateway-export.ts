import { createPrivateKey, type KeyObject } from 'node:crypto'
import type { ExportFormat } from '../../shared/api'
import { certificatesToPem, distinctCertificates, parseCertificates } from './pem'
import { buildPkcs12 } from './pkcs12'
import type { CertificateMaterial, ExportedFile } from './types'
import { storedZip } from './zip'

/*
 * Op 12 as a real deployment answers it (its pki module: `cert.routes.ts`, `export.service.ts`,
 * facts only): the id is the internal PKI's certificate, the answer is the file itself, named
 * after the certificate's common name with every character outside [A-Za-z0-9._-] made '_'.
 *
 *   format       file               media type                    notes
 *   pem          <cn>.pem           application/x-pem-file        the leaf only
 *   der          <cn>.der           application/x-x509-ca-cert
 *   pkcs12       <cn>.p12           application/x-pkcs12          key + leaf; passphrase required
 *   jks          <cn>.jks           application/x-java-keystore   a PKCS#12 keystore (keytool
 *                                                                 reads it as JKS); without a key
 *                                                                 the leaf's DER; passphrase
 *                                                                 required
 *   pem-bundle   <cn>.zip           application/zip               <cn>.pem, <cn>-chain.pem,
 *                                                                 <cn>-fullchain.pem, <cn>.key
 *   chain        <cn>-chain.pem     application/x-pem-file        issuers
 *   fullchain    <cn>-fullchain.pem application/x-pem-file        leaf then issuers
 *   private-key  <cn>.key           application/x-pem-file        PKCS#8
 *
 * The mirrored source accepts pem, der, pkcs12 and jks only; pem-bundle as a ZIP is what the
 * issue reports of the deployment it met, and chain, fullchain and private-key keep the
 * formats the interface gives op 12, with names of the same kind.
 */

/** A refusal as the real route words it (400 with its own code), for the handler to send. */
export class PkiExportRefused extends Error {
  constructor(
    readonly code: 'PASSPHRASE_REQUIRED' | 'NO_PRIVATE_KEY',
    message: string,
  ) {
    super(message)
    this.name = 'PkiExportRefused'
  }
}

const PEM_FILE = 'application/x-pem-file'

/** The real service's file-name rule: anything but [A-Za-z0-9._-] becomes '_'. */
export function gatewayFileBase(commonName: string): string {
  const base = commonName.replace(/[^a-zA-Z0-9._-]/g, '_')
  return base === '' ? 'certificate' : base
}

export function exportPkiCertificate(
  material: CertificateMaterial,
  format: ExportFormat,
  options: { commonName: string; passphrase?: string | undefined },
): ExportedFile {
  const base = gatewayFileBase(options.commonName)
  const [leaf, ...pasted] = parseCertificates(material.certificatePem)
  if (leaf === undefined) throw new Error('Certificate material holds no certificate')
  const issuers = distinctCertificates(
    [...pasted, ...parseCertificates(material.chainPem), ...parseCertificates(material.rootPem)],
    [leaf],
  )
  const key: KeyObject | undefined =
    material.privateKeyPem === undefined ? undefined : createPrivateKey(material.privateKeyPem)
  const passphrase = options.passphrase === '' ? undefined : options.passphrase
  const keyPem = (encryptWith: string | undefined) => {
    if (key === undefined) {
      throw new PkiExportRefused(
        'NO_PRIVATE_KEY',
        'Private key not available (CSR-based certificate)',
      )
    }
    const pem =
      encryptWith === undefined
        ? key.export({ type: 'pkcs8', format: 'pem' })
        : key.export({
            type: 'pkcs8',
            format: 'pem',
            cipher: 'aes-256-cbc',
            passphrase: encryptWith,
          })
    return Buffer.from(pem)
  }
  const pkcs12 = (password: string) =>
    buildPkcs12({
      privateKeyDer: key?.export({ type: 'pkcs8', format: 'der' }),
      certificatesDer: [leaf.raw],
      password,
      friendlyName: options.commonName,
    })

  switch (format) {
    case 'pem':
      return text(`${base}.pem`, leaf.toString())
    case 'der':
      return binary(`${base}.der`, 'application/x-x509-ca-cert', leaf.raw)
    case 'chain':
      return text(`${base}-chain.pem`, certificatesToPem(issuers))
    case 'fullchain':
      return text(`${base}-fullchain.pem`, certificatesToPem([leaf, ...issuers]))
    case 'private-key':
      return { ...text(`${base}.key`, ''), bytes: keyPem(passphrase) }
    case 'pkcs12':
      if (passphrase === undefined) {
        throw new PkiExportRefused('PASSPHRASE_REQUIRED', 'Passphrase required for PKCS#12 export')
      }
      if (key === undefined) {
        throw new PkiExportRefused(
          'NO_PRIVATE_KEY',
          'Private key not available (CSR-based certificate)',
        )
      }
      return binary(`${base}.p12`, 'application/x-pkcs12', pkcs12(passphrase))
    case 'jks':
      if (passphrase === undefined) {
        throw new PkiExportRefused('PASSPHRASE_REQUIRED', 'Passphrase required for JKS export')
      }
      return binary(
        `${base}.jks`,
        'application/x-java-keystore',
        key === undefined ? leaf.raw : pkcs12(passphrase),
      )
    case 'pem-bundle': {
      const entries = [
        { name: `${base}.pem`, bytes: Buffer.from(leaf.toString()) },
        ...(issuers.length === 0
          ? []
          : [{ name: `${base}-chain.pem`, bytes: Buffer.from(certificatesToPem(issuers)) }]),
        {
          name: `${base}-fullchain.pem`,
          bytes: Buffer.from(certificatesToPem([leaf, ...issuers])),
        },
        ...(key === undefined ? [] : [{ name: `${base}.key`, bytes: keyPem(passphrase) }]),
      ]
      return binary(`${base}.zip`, 'application/zip', storedZip(entries))
    }
  }
}

function text(filename: string, content: string): ExportedFile {
  return { filename, mediaType: PEM_FILE, bytes: Buffer.from(content, 'utf8'), isText: true }
}

function binary(filename: string, mediaType: string, bytes: Buffer): ExportedFile {
  return { filename, mediaType, bytes, isText: false }
}
