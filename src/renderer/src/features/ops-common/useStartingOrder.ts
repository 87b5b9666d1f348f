import type { DependencyList } from 'react'
import type { KnownOrder, OrderedItem } from '../../../../shared/bridge/channels/operations'
import { useBridgeRead } from '../../lib/use-bridge-read'

/*
 * Where a reorder screen starts (the service lists neither template folders nor environments):
 * the order the app kept from the last answer, and the ids the list starts with. Read once per
 * profile; its failure is kept for the screen to show.
 */

export interface StartingOrder {
  known: KnownOrder
  ids: string[]
}

const NOTHING_KNOWN: StartingOrder = { known: { items: [], fetchedAt: null }, ids: [] }

export function useStartingOrder(read: () => Promise<StartingOrder>, deps: DependencyList) {
  const start = useBridgeRead(read, deps, NOTHING_KNOWN)
  return {
    ...start.value,
    /** What the app knows of each id (name, folder), from the last answer. */
    knownById: new Map<string, OrderedItem>(start.value.known.items.map((item) => [item.id, item])),
    error: start.error,
    loading: start.loading,
    /** Reads the starting order again (the user's "Start over"). */
    reload: start.reload,
    setIds: (ids: string[]) => start.setValue((current) => ({ ...current, ids })),
    /** The order a save answered with; `ids` replaces the list when given. */
    setKnown: (known: KnownOrder, ids?: string[]) =>
      start.setValue((current) => ({ known, ids: ids ?? current.ids })),
  }
}
