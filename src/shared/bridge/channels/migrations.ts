import { z } from 'zod'
import { migrationSchema, operations } from '../../api'
import { id, profileId } from '../common'

/*
 * Migrations (op 13): the resolution dialog's own channel, so the activity log records which
 * side was made authoritative and the status that came back, not just "resolveMigration".
 * The deep link `infradesk://migrations/<id>/resolve` reaches the window as an event.
 */

export const migrationChannels = {
  /** Op 13, recorded in the activity log with the side chosen and the resulting status. */
  'migrations.resolve': () => {
    const { params, body } = operations.resolveMigration
    if (body === null) throw new Error('Op 13 takes a body')
    return {
      input: profileId.extend({
        id: params.shape.id.pipe(id),
        authoritativeSide: body.shape.authoritativeSide,
      }),
      output: migrationSchema,
    }
  },
} as const

export const migrationEvents = {
  /** The desktop app was opened with `infradesk://migrations/<id>/resolve`. */
  'migrations.openResolve': () => z.object({ id }),
} as const
