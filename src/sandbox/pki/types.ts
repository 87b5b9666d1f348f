import type { ExportFormat } from '../../shared/api'

/** A certificate as the sandbox holds it: real PEM material issued by the sandbox CA. */
export interface CertificateMaterial {
  certificatePem: string
  /** Absent for certificates uploaded or seeded without a key. */
  privateKeyPem?: string
  /** Intermediate certificate(s) between the leaf and the root, PEM, leaf-most first. May be ''. */
  chainPem: string
  /** The root that anchors the chain (self-signed), PEM. */
  rootPem: string
}

/** What the sandbox shows of a certificate, read from the X.509 itself. */
export interface CertificateFacts {
  commonName: string
  subject: string
  issuer: string
  serialNumber: string
  /** ISO 8601. */
  notBefore: string
  notAfter: string
  subjectAltNames: string[]
  fingerprintSha256: string
  keyAlgorithm: string
  selfSigned: boolean
}

export interface IssueLeafOptions {
  commonName: string
  subjectAltNames?: string[]
  notBefore: Date
  notAfter: Date
}

export interface SandboxPki {
  rootPem: string
  intermediatePem: string
  /** Issues a leaf signed by the intermediate, with a fresh key. */
  issueLeaf(
    options: IssueLeafOptions,
  ): Promise<{ material: CertificateMaterial; facts: CertificateFacts }>
}

/** Why an upload is refused; `field` names the body field for details[].path. */
export interface UploadProblem {
  field: 'certificatePem' | 'privateKeyPem' | 'chainPem'
  message: string
}

export type UploadInspection =
  | {
      ok: true
      facts: CertificateFacts
      chainPem: string
      /** The leaf alone, canonical PEM (extra certificates pasted after it moved to chainPem). */
      certificatePem: string
      /** The key as unencrypted PKCS#8 PEM, whatever form it was uploaded in. */
      privateKeyPem: string
    }
  | { ok: false; problem: UploadProblem }

export interface ExportedFile {
  filename: string
  mediaType: string
  bytes: Buffer
  /** True when the bytes are text (PEM); binary formats are never sent through a text decoder. */
  isText: boolean
}

/** Thrown when a format cannot be produced (jks without passphrase, private-key without key). */
export class ExportRefused extends Error {
  constructor(
    message: string,
    readonly field: 'format' | 'passphrase',
  ) {
    super(message)
    this.name = 'ExportRefused'
  }
}

export type ExportCertificate = (
  material: CertificateMaterial,
  format: ExportFormat,
  options: { baseName: string; passphrase?: string },
) => ExportedFile
