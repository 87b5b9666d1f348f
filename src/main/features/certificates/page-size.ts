import { isServiceError } from '../../api'
import { boundOf, fieldRefusal } from '../../sql/row-bound'

/*
 * Op 16's page size, as a service states it. The spec leaves `limit` open; a real deployment
 * takes 1..100 and refuses more with a VALIDATION_ERROR whose details name `limit` (a dotted
 * string path there, an array in our sandbox). The walk learns the bound from that refusal, as
 * the SQL console learns op 5's row bound (sql/row-bound.ts, whose reading of the bound's
 * words this shares), and the profile keeps it (cache/certificate-page-limits.ts) so the next
 * refresh asks the right size at once.
 */

/**
 * The message of a VALIDATION_ERROR whose details name `limit` (path "limit", ["limit"],
 * "query.limit" or ["query", "limit"]); null for any other error.
 */
export function limitRefusal(error: unknown): string | null {
  const refusal = refusalOf(error)
  return refusal === null ? null : fieldRefusal(refusal, 'limit')
}

/**
 * The code and details of a refusal: a ServiceError in main; in the CLI, whose walk calls
 * through the bridge, the bridge's error a CliError carries (`bridgeError`).
 */
function refusalOf(error: unknown): { code: string; details: unknown } | null {
  if (isServiceError(error)) return { code: error.code, details: error.details }
  const carried =
    typeof error === 'object' && error !== null
      ? (error as { bridgeError?: unknown }).bridgeError
      : undefined
  if (typeof carried !== 'object' || carried === null) return null
  const { code, details } = carried as { code?: unknown; details?: unknown }
  return typeof code === 'string' ? { code, details } : null
}

/** The page size to ask after `refusal` of `asked`: the bound it states, else null (none sent). */
export function pageSizeOf(refusal: string, asked: number): number | null {
  return boundOf(refusal, asked)
}
