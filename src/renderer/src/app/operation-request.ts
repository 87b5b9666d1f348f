import { useEffect, useEffectEvent, useRef } from 'react'
import type { OperationName } from '../../../shared/api'
import { OPERATION_ROUTES, operationRequestOf, type OperationRequest } from './palette-entries'
import type { RouteParams } from './routes'
import { useAppStore } from './store'

/*
 * A screen asked to perform one of its operations: the palette (and a deep link) opens it with
 * `op=<operation name>` and the operation's path parameters by name (`id`, `routeId`, `nodeId`…,
 * see palette-entries.ts). One reading of those parameters for every screen, so each screen
 * only says what it does with the ids (select, open the dialog, fill the form in).
 */

export type { OperationRequest } from './palette-entries'

/**
 * Calls `apply` once for each navigation that asks this screen for one of `accepted` (the one
 * it opened with included). `apply` returns false while the screen cannot act on it yet (its
 * list is still loading): it is called again, with the same request object, after the
 * screen's next render, until it returns anything else.
 *
 * Each navigation makes a new parameters object, so choosing the same palette entry again
 * (the screen already open) applies it again; a re-render alone never does.
 */
export function useOperationRequest(
  accepted: readonly OperationName[],
  apply: (request: OperationRequest) => boolean | void,
): void {
  const route = useAppStore((s) => s.route)
  const params = useAppStore((s) => s.routeParams)
  /** The navigation last looked at, its request, and whether the screen has acted on it. */
  const seen = useRef<{ params: RouteParams; request: OperationRequest | null; done: boolean }>(
    null,
  )
  const onRequest = useEffectEvent(apply)
  // No dependencies on purpose: a pending request is retried after every render of the screen
  // (its data arriving re-renders it); the identity check makes the other runs free.
  useEffect(() => {
    if (seen.current?.params !== params) {
      const request = operationRequestOf(params, accepted)
      // The parameters are the app's, whichever screen shows: only this screen's operations.
      const mine = request !== null && OPERATION_ROUTES[request.operation] === route
      seen.current = { params, request: mine ? request : null, done: !mine }
    }
    const current = seen.current
    if (current.done || current.request === null) return
    if (onRequest(current.request) !== false) current.done = true
  })
}
