import { operations } from '../../../../shared/api'

/*
 * The resolve dialog's fields, straight from the service contract (op 13): the path's `id` and
 * the body's `authoritativeSide`, so the form says exactly what the service would say.
 */

const { params, body } = operations.resolveMigration
if (body === null) throw new Error('Op 13 takes a body')

export const resolveFormSchema = params.extend(body.shape)
export type ResolveForm = typeof resolveFormSchema
export type AuthoritativeSide = (typeof body.shape.authoritativeSide.options)[number]
