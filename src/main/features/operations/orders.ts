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
 * list in its new order) and offers it as the starting point next time. A real deployment
 * answers `{"success": true}` with no list: then the order sent is applied to the list kept
 * (items it did not name keep theirs), so the starting point next time is still what is now.
 */

type Handlers = Pick<
  BridgeHandlers,
  | 'logging.reorder'
  | 'logging.knownEnvironments'
  | 'nginxTemplates.reorder'
  | 'nginxTemplates.knownFolders'
>

/** A reorder operation, the snapshot that keeps its list, and what one item is called. */
interface ReorderedList {
  operation: 'reorderLoggingEnvironments' | 'reorderNginxTemplateFolders'
  key: SnapshotKey
  noun: string
}

const LOGGING_ENVIRONMENTS: ReorderedList = {
  operation: 'reorderLoggingEnvironments',
  key: 'logging-environments',
  noun: 'environment',
}
const NGINX_TEMPLATE_FOLDERS: ReorderedList = {
  operation: 'reorderNginxTemplateFolders',
  key: 'nginx-template-folders',
  noun: 'folder',
}

export function orderHandlers(context: DeskContext, store: OperationsStore): Handlers {
  function known(profileId: string, key: SnapshotKey): KnownOrder {
    requireProfile(context, profileId)
    const snapshot = store.getSnapshot(profileId, key)
    if (snapshot === null) return { items: [], fetchedAt: null }
    return { items: readOrderedItems(snapshot.value), fetchedAt: snapshot.fetchedAt }
  }

  function keep(
    profileId: string,
    key: SnapshotKey,
    data: unknown,
    sent: { id: string; sortOrder: number }[],
  ): KnownOrder {
    const items =
      data === undefined
        ? applySentOrder(known(profileId, key).items, sent)
        : readOrderedItems(data)
    const fetchedAt = Date.now()
    store.putSnapshot(profileId, key, items, fetchedAt)
    return { items, fetchedAt }
  }

  /** The items whose names the activity line uses: the answer's, else the list kept. */
  function namesOf(data: unknown, profileId: string, key: SnapshotKey): OrderedItem[] {
    return data === undefined ? known(profileId, key).items : readOrderedItems(data)
  }

  /**
   * Sends the new order, records it (`noun` names one item in the activity line), and keeps
   * the order now in force as next time's starting point.
   */
  async function reorder(
    profileId: string,
    { operation, key, noun }: ReorderedList,
    items: { id: string; sortOrder: number }[],
    target: string | null,
  ): Promise<KnownOrder> {
    const answer = await recordedCall(context, profileId, operation, {
      input: { body: { items } },
      target,
      describe: (reordered) => describeOrder(items, namesOf(reordered.data, profileId, key), noun),
    })
    return keep(profileId, key, answer.data, items)
  }

  return {
    async 'logging.reorder'({ profileId, folderId, items }) {
      return reorder(profileId, LOGGING_ENVIRONMENTS, items, folderId ?? null)
    },
    async 'logging.knownEnvironments'({ profileId }) {
      return known(profileId, 'logging-environments')
    },
    async 'nginxTemplates.reorder'({ profileId, items }) {
      return reorder(profileId, NGINX_TEMPLATE_FOLDERS, items, null)
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

/**
 * The list kept with the sent sortOrders applied, in display order; an item sent that the list
 * does not hold yet is added by its id (the answer named none of them).
 */
export function applySentOrder(
  kept: OrderedItem[],
  sent: { id: string; sortOrder: number }[],
): OrderedItem[] {
  const sortOrders = new Map(sent.map((item) => [item.id, item.sortOrder]))
  const updated = kept.map((item) => {
    const sortOrder = sortOrders.get(item.id)
    return sortOrder === undefined ? item : { ...item, sortOrder }
  })
  const keptIds = new Set(kept.map((item) => item.id))
  const added: OrderedItem[] = sent
    .filter((item) => !keptIds.has(item.id))
    .map((item) => ({ ...item }))
  const position = (item: OrderedItem) => item.sortOrder ?? Number.MAX_SAFE_INTEGER
  // A stable sort within each folder keeps the folders' own order (op 11's list is by folder).
  const folderRank = new Map<string | undefined, number>()
  for (const item of updated)
    if (!folderRank.has(item.folderId)) folderRank.set(item.folderId, folderRank.size)
  return [...updated, ...added].sort(
    (a, b) =>
      (folderRank.get(a.folderId) ?? 0) - (folderRank.get(b.folderId) ?? 0) ||
      position(a) - position(b),
  )
}
