import type { BridgeError } from '../../../../shared/bridge'
import { missingPermissionOf } from '../../lib/errors'
import { migrationStatusLabel } from './words'

/*
 * Op 13's refusals in the operator's terms: what happened, whether anything changed, and what
 * to do next. The raw code, status and message still show beneath (ErrorBanner).
 */

export interface Explanation {
  title: string
  text: string
}

export function explainResolveError(
  error: BridgeError,
  migrationId: string,
  profileName: string,
): Explanation | null {
  switch (error.code) {
    case 'CONFLICT': {
      const status = statusOf(error.details)
      return {
        title: 'This migration does not need attention',
        text:
          `Migration ${migrationId} is ${status ? `${migrationStatusLabel(status).toLowerCase()} (${status})` : 'not waiting for an operator'}. ` +
          'Only a migration that needs attention can be resolved: it may have been ' +
          'resolved already, or it is still under way. Nothing was changed.',
      }
    }
    case 'FORBIDDEN': {
      const permission = missingPermissionOf(error.details)
      return {
        title: `The token of "${profileName}" may not resolve migrations`,
        text:
          'The service refused with 403: this token can read but lacks the write permission ' +
          `op 13 needs${permission ? ` (${permission})` : ''}. Nothing was changed. Sign in ` +
          'with an operator’s token, or ask someone who has one to resolve it.',
      }
    }
    case 'NOT_FOUND':
      return {
        title: 'No such migration',
        text: `The service of "${profileName}" knows no migration ${migrationId}. Check the id, and the profile.`,
      }
    default:
      return null
  }
}

/** The migration's current status, when the 409's details name it. */
function statusOf(details: unknown): string | null {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return null
  const status = (details as Record<string, unknown>)['status']
  return typeof status === 'string' && status !== '' ? status : null
}
