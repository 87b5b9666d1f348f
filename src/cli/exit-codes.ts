import type { BridgeError } from '../shared/bridge'
import { bridgeErrorText, QUERY_FAILED_SERVICE_CODE } from './error-text'

/*
 * The exit codes of `infradesk`, one per kind of failure a script can act on. The
 * desk's errors carry a code (the service's, or the app's own such as OFFLINE); each maps to
 * exactly one exit code here, so `--help`, the README and the tests share one table.
 */

export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  network: 6,
  badAnswer: 7,
  rateLimited: 8,
} as const
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** The table as `--help` and the README print it. */
export const EXIT_CODE_HELP = [
  'Exit codes:',
  '  0  success',
  '  1  anything else (a file that cannot be written, a SQL write held back until',
  '     --confirm-write, a statement PostgreSQL refused, ...)',
  '  2  usage: a wrong or missing argument, a value the service refused as invalid',
  '  3  authentication: no token, or the service answered 401/403 (a 403 on an endpoint the',
  '     service keeps for browser sessions too, where a command does not say it plainly)',
  '  4  not found (404, or no such profile)',
  '  5  conflict (409)',
  '  6  network or TLS: the service could not be reached, timed out or failed the handshake',
  "  7  the service's answer was unusable (wrong shape, size or SHA-256)",
  "  8  the service's rate limit (429): reads waited up to 3 times, 60 s in all; writes never",
  '     retry. The message says when to try again',
  'The reason is printed on standard error in one line.',
].join('\n')

const BY_CODE: Record<string, ExitCode> = {
  VALIDATION_ERROR: EXIT.usage,
  BAD_URL: EXIT.usage,
  UNAUTHORIZED: EXIT.auth,
  FORBIDDEN: EXIT.auth,
  BROWSER_SESSION_ONLY: EXIT.auth,
  NOT_SIGNED_IN: EXIT.auth,
  NOT_FOUND: EXIT.notFound,
  CONFLICT: EXIT.conflict,
  PAYLOAD_TOO_LARGE: EXIT.usage,
  RATE_LIMITED: EXIT.rateLimited,
  OFFLINE: EXIT.network,
  TIMEOUT: EXIT.network,
  TLS_ERROR: EXIT.network,
  BAD_RESPONSE: EXIT.badAnswer,
  INTEGRITY_ERROR: EXIT.badAnswer,
}

/**
 * The exit code for an error the desk (or the service through it) reported. A statement
 * PostgreSQL refused exits 1 on every service, though a real deployment answers it with a 400
 * (a VALIDATION_ERROR to the app): the request was right, the SQL was not.
 */
export function exitCodeOf(error: Pick<BridgeError, 'code' | 'serviceCode'>): ExitCode {
  if (error.serviceCode === QUERY_FAILED_SERVICE_CODE) return EXIT.other
  return BY_CODE[error.code] ?? EXIT.other
}

/** A failure the CLI reports and exits with: one line on stderr, then `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** The desk's error this one reports, when it reports one (commands may word it). */
    readonly bridgeError?: BridgeError,
  ) {
    super(message)
  }

  static usage(message: string): CliError {
    return new CliError(message, EXIT.usage)
  }

  static fromBridge(error: BridgeError): CliError {
    return new CliError(bridgeErrorText(error), exitCodeOf(error), error)
  }
}
