export { ServiceError, isServiceError, toBridgeError, redact, redactError } from './errors'
export { checkCallInput, createServiceClient, errorFromResponse } from './client'
export type {
  CallInput,
  CallOptions,
  CertificateFile,
  ClientSpec,
  ExportRequest,
  RawFetchOptions,
  ServiceClient,
  ServiceClientOptions,
} from './client'
export { describeOrigin, toNetworkError } from './network'
export { requestRaw } from './raw-http'
export type { BodySink, RawResponse } from './raw-http'
export { filenameFromContentDisposition } from './content-disposition'
