export { createSandboxPki, readCertificateFacts } from './authority'
export { exportCertificate, safeBaseName } from './export'
export { inspectUpload, type CertificateUpload } from './upload'
export { ExportRefused } from './types'
export type {
  CertificateFacts,
  CertificateMaterial,
  ExportCertificate,
  ExportedFile,
  IssueLeafOptions,
  SandboxPki,
  UploadInspection,
  UploadProblem,
} from './types'
