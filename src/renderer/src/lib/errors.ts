import { validationIssuesOf } from '../../../shared/api'
import type { BridgeError } from '../../../shared/bridge'

/*
 * How an error reads on screen: its code, what that means for the user, the HTTP status when
 * the service gave one, then the exact message. One wording for every screen.
 */

const EXPLANATIONS: Record<string, string> = {
  VALIDATION_ERROR: 'some fields are not valid',
  UNAUTHORIZED: 'the service refused the token',
  FORBIDDEN: 'the token lacks a permission this needs',
  NOT_FOUND: 'the service does not know this resource',
  CONFLICT: 'this conflicts with the current state',
  UNPROCESSABLE_ENTITY: 'the service could not process this request',
  INTERNAL_ERROR: 'the service failed',
  OFFLINE: 'the service could not be reached',
  TIMEOUT: 'the service did not answer in time',
  TLS_ERROR: 'the secure connection failed (certificate not trusted, expired or for another host)',
  BAD_URL: 'the base URL is not usable',
  BAD_RESPONSE: 'the answer did not have the expected shape',
  NOT_SIGNED_IN: 'this profile is signed out',
  KEYCHAIN_UNAVAILABLE: 'the system keychain cannot be used',
  CANCELLED: 'stopped before it finished',
  UNKNOWN_CHANNEL: 'the app does not know this call',
  BRIDGE_UNAVAILABLE: 'the app itself did not answer',
  BROWSER_SESSION_ONLY:
    'the service keeps this for browser sessions (its web console); an API token cannot use it',
  RATE_LIMITED: "the service's rate limit was reached; try again when it says",
  SERVICE_TIMEOUT:
    'the service stopped the request: it ran past its time budget (query budget or request timeout)',
  SERVICE_CANCELLED: 'the service cancelled the request before it finished',
  PAYLOAD_TOO_LARGE: 'the request is larger than the service accepts',
  WORK_FAILED: 'the service answered, but says the work failed (its last error follows)',
  DESKTOP_BRIDGE_MISSING: "the window's preload did not load, so the app cannot reach its core",
}

/**
 * "UNAUTHORIZED — the service refused the token (401)"; the service's own code follows the
 * status when it is another one ("(403, HTTP_ERROR)"), so nothing it said is lost.
 */
export function errorHeadline(error: BridgeError): string {
  const explanation = EXPLANATIONS[error.code]
  const said = [
    ...(error.status === undefined ? [] : [String(error.status)]),
    ...(error.serviceCode === undefined || error.serviceCode === error.code
      ? []
      : [error.serviceCode]),
  ]
  const status = said.length === 0 ? '' : ` (${said.join(', ')})`
  return explanation ? `${error.code} — ${explanation}${status}` : `${error.code}${status}`
}

/** The service keeps this for browser sessions and refused the API token (not an error). */
export function isBrowserSessionOnly(error: Pick<BridgeError, 'code'> | null | undefined): boolean {
  return error?.code === 'BROWSER_SESSION_ONLY'
}

/** The permission a FORBIDDEN answer names, when the service gives one. */
export function missingPermissionOf(details: unknown): string | null {
  if (typeof details !== 'object' || details === null) return null
  if (Array.isArray(details)) {
    for (const entry of details) {
      const found = missingPermissionOf(entry)
      if (found) return found
    }
    return null
  }
  for (const key of ['permission', 'requiredPermission', 'missingPermission']) {
    const value = (details as Record<string, unknown>)[key]
    if (typeof value === 'string' && value !== '') return value
  }
  return null
}

/** Errors that mean "the service is out of reach", as opposed to "the service said no". */
export { isConnectivityError } from '../../../shared/bridge/connectivity'

/** Errors that mean the profile needs a new token. */
export function isAuthError(error: Pick<BridgeError, 'code'> | null | undefined): boolean {
  return error?.code === 'UNAUTHORIZED' || error?.code === 'NOT_SIGNED_IN'
}

export interface FieldErrors<F extends string> {
  /** The first message for each field a validation issue names. */
  fields: Partial<Record<F, string>>
  /** Messages that name no field of the form. */
  other: string[]
}

/**
 * Places VALIDATION_ERROR details on the form fields they name. A path may be prefixed (e.g.
 * `["body", "name"]` from the service), so the last segment that is a field of the form wins.
 */
export function fieldErrorsFrom<F extends string>(
  details: unknown,
  fieldNames: readonly F[],
): FieldErrors<F> {
  const result: FieldErrors<F> = { fields: {}, other: [] }
  for (const issue of validationIssuesOf(details)) {
    const field = [...issue.path]
      .reverse()
      .find((segment): segment is F => (fieldNames as readonly string[]).includes(segment))
    if (field === undefined) {
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
      result.other.push(`${where}${issue.message}`)
    } else if (result.fields[field] === undefined) {
      result.fields[field] = issue.message
    }
  }
  return result
}
