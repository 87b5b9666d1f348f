import { createPrivateKey, type KeyObject, type X509Certificate } from 'node:crypto'
import { certificateFacts } from './facts'
import {
  certificateBlocks,
  certificatesToPem,
  distinctCertificates,
  parseCertificates,
} from './pem'
import type { UploadInspection, UploadProblem } from './types'

export interface CertificateUpload {
  certificatePem: string
  privateKeyPem: string
  chainPem?: string
}

/*
 * Checks an uploaded certificate the way op 7 needs: the certificate and the key must be
 * readable PEM and belong together; a chain, when given, must be readable. OpenSSL (through
 * node:crypto) does the reading, so RSA, EC and Ed25519 material are all accepted.
 *
 * certificatePem may carry the chain after the leaf (a common "fullchain" paste); those
 * extra certificates join chainPem. On success the leaf, the chain and the key come back in
 * canonical form: LF-terminated PEM, the key as unencrypted PKCS#8.
 */
export function inspectUpload(upload: CertificateUpload): UploadInspection {
  const certificates = readCertificates(upload.certificatePem)
  const leaf = certificates?.[0]
  if (!certificates || !leaf) {
    return refuse('certificatePem', 'The certificate PEM could not be read as an X.509 certificate')
  }

  const privateKey = readPrivateKey(upload.privateKeyPem)
  if (!privateKey) {
    return refuse(
      'privateKeyPem',
      'The private key PEM could not be read (expected an unencrypted PKCS#1, PKCS#8 or SEC 1 key)',
    )
  }
  if (!keyMatches(leaf, privateKey)) {
    return refuse('privateKeyPem', 'The private key does not match the certificate')
  }

  let chain = certificates.slice(1)
  if (upload.chainPem !== undefined && upload.chainPem.trim() !== '') {
    const given = readCertificates(upload.chainPem)
    if (!given || given.length === 0) {
      return refuse('chainPem', 'The certificate chain PEM could not be read as X.509 certificates')
    }
    chain = [...chain, ...given]
  }

  return {
    ok: true,
    facts: certificateFacts(leaf),
    certificatePem: leaf.toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    chainPem: certificatesToPem(distinctCertificates(chain, [leaf])),
  }
}

function refuse(field: UploadProblem['field'], message: string): UploadInspection {
  return { ok: false, problem: { field, message } }
}

/** All certificates of a PEM text, or undefined when it has none or one does not parse. */
function readCertificates(pem: string): X509Certificate[] | undefined {
  if (certificateBlocks(pem).length === 0) return undefined
  try {
    return parseCertificates(pem)
  } catch {
    return undefined
  }
}

function readPrivateKey(pem: string): KeyObject | undefined {
  if (!pem.includes('-----BEGIN')) return undefined
  try {
    return createPrivateKey({ key: pem, format: 'pem' })
  } catch {
    // Unparseable, or encrypted (no passphrase is part of the upload).
    return undefined
  }
}

function keyMatches(certificate: X509Certificate, key: KeyObject): boolean {
  try {
    return certificate.checkPrivateKey(key)
  } catch {
    return false
  }
}
