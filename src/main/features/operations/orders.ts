import { orderedItemSchema } from '../../../shared/bridge/channels/operations'
import type { KnownOrder, OrderedItem } from '../../../shared/bridge/channels/operations'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import type { OperationsStore, SnapshotKey } from '../../cache/operations'
import type { DeskContext } from '../context'
import { requireProfile } from '../context'
import { recordedCall } from '../recorded'

/*
 * Reordering logging environments (op 11) and nginx template folders (op 9). The service has no
 * operation that lists either, so the app keeps the last answer (both answer with the whole
 * list in its new order) and offers it as the starting point next time.
 */

type Handlers = Pick<
  BridgeHandlers,
  | 'logging.reorder'
  | 'logging.knownEnvironments'
  | 'nginxTemplates.reorder'
  | 'nginxTemplates.knownFolders'
>

export function orderHandlers(context: DeskContext, store: OperationsStore): Handlers {
  function known(profileId: string, key: SnapshotKey): KnownOrder {
    requireProfile(context, profileId)
    const snapshot = store.getSnapshot(profileId, key)
    if (snapshot === null) return { items: [], fetchedAt: null }
    return { items: readOrderedItems(snapshot.value), fetchedAt: snapshot.fetchedAt }
  }

  function keep(profileId: string, key: SnapshotKey, data: unknown): KnownOrder {
    const items = readOrderedItems(data)
    const fetchedAt = Date.now()
    store.putSnapshot(profileId, key, items, fetchedAt)
    return { items, fetchedAt }
  }

  return {
    async 'logging.reorder'({ profileId, folderId, items }) {
      const answer = await recordedCall(context, profileId, 'reorderLoggingEnvironments', {
        input: { body: { items } },
        target: folderId ?? null,
        describe: (reordered) =>
          describeOrder(items, readOrderedItems(reordered.data), 'environment'),
      })
      return keep(profileId, 'logging-environments', answer.data)
    },
    async 'logging.knownEnvironments'({ profileId }) {
      return known(profileId, 'logging-environments')
    },
    async 'nginxTemplates.reorder'({ profileId, items }) {
      const answer = await recordedCall(context, profileId, 'reorderNginxTemplateFolders', {
        input: { body: { items } },
        target: null,
        describe: (reordered) => describeOrder(items, readOrderedItems(reordered.data), 'folder'),
      })
      return keep(profileId, 'nginx-template-folders', answer.data)
    },
    async 'nginxTemplates.knownFolders'({ profileId }) {
      return known(profileId, 'nginx-template-folders')
    },
  }
}

/** The answer's items that read as ordered items; anything else in the list is skipped. */
export function readOrderedItems(data: unknown): OrderedItem[] {
  if (!Array.isArray(data)) return []
  return data.flatMap((item) => {
    const parsed = orderedItemSchema.safeParse(item)
    return parsed.success ? [parsed.data] : []
  })
}

/** "3 environments in the order: Production, Staging, Development". */
function describeOrder(
  sent: { id: string; sortOrder: number }[],
  answer: OrderedItem[],
  noun: string,
): string {
  const names = new Map(answer.map((item) => [item.id, item.name ?? item.id]))
  const ordered = [...sent].sort((a, b) => a.sortOrder - b.sortOrder)
  const plural = sent.length === 1 ? noun : `${noun}s`
  return `${sent.length} ${plural} in the order: ${ordered.map((item) => names.get(item.id) ?? item.id).join(', ')}`
}
