import type { z } from 'zod'
import { LIST_OPERATIONS, type ListOperationName } from '../../shared/api'
import type { BridgeError } from '../../shared/bridge'
import type { listWindowInput } from '../../shared/bridge/channels/lists'
import { parseServiceJson } from '../api/json'
import type { ListRow, RowSink } from '../api/client'
import type { CachedListKind } from '../cache'
import type { ListSpool } from '../cache/list-spool'
import type { DeskContext } from './context'
import { bridgeErrorOf, isConnectivityError, withProfileClient } from './context'

/*
 * Big lists in windows (issue 9), for the sessions and inference screens. A fetch reads the
 * service's answer as it arrives, row by row (each row parsed and validated once, kept as the
 * service's own JSON text), into a spool on disk (cache/list-spool.ts); once the whole answer
 * is read and checked, the spooled rows replace the cached list in one transaction. The screen
 * then reads windows of it, filtered and sorted in SQLite. No full list, not even the answer's
 * body, is held in memory, and none crosses the bridge.
 *
 * A fetch that asks for the first rows in the service's order (the common case: the screen
 * opens, Refresh) answers as soon as every row is checked, and the list is written to the cache
 * right after the answer has left (the SQL console's first page, the same idea): writing
 * 150,000 rows takes longer than reading them. Windows asked for meanwhile wait for the write.
 */

export type WindowInput = z.output<typeof listWindowInput>

export interface WindowAnswer<T> {
  total: number
  matched: number
  offset: number
  items: T[]
  fetchedAt: number | null
  offline: boolean
  error: BridgeError | null
}

/** Words of a filter query, as the cache matches them against row ids. */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean)
}

/** Cache writes that follow an answer, per desk and `profileId kind`: windows wait for them. */
const pendingWrites = new WeakMap<DeskContext, Map<string, Promise<void>>>()

function pendingOf(context: DeskContext): Map<string, Promise<void>> {
  let pending = pendingWrites.get(context)
  if (pending === undefined) {
    pending = new Map()
    pendingWrites.set(context, pending)
  }
  return pending
}

/**
 * Reads of each list from the service, per desk and `profileId kind`: those under way (by the
 * order they began in), and the last to begin of those that succeeded. A deferred write whose
 * list a later read replaces is skipped (see `fetchWindow`).
 */
interface ListReads {
  began: number
  running: Map<number, Promise<unknown>>
  newestSucceeded: number
}

const listReads = new WeakMap<DeskContext, Map<string, ListReads>>()

function readsOf(context: DeskContext, key: string): ListReads {
  let byKey = listReads.get(context)
  if (byKey === undefined) {
    byKey = new Map()
    listReads.set(context, byKey)
  }
  let reads = byKey.get(key)
  if (reads === undefined) {
    reads = { began: 0, running: new Map(), newestSucceeded: 0 }
    byKey.set(key, reads)
  }
  return reads
}

/**
 * Waits for the reads of big lists under way, of any list (the answer someone waits for comes
 * before a write nobody waits for: writing 150,000 rows holds the event loop ~0.5 s), then says
 * whether a read of list `key` that began after read `order` succeeded (it replaces that list).
 */
async function replacedAfterReads(
  context: DeskContext,
  key: string,
  order: number,
): Promise<boolean> {
  const running = [...(listReads.get(context)?.values() ?? [])].flatMap((reads) => [
    ...reads.running.values(),
  ])
  await Promise.allSettled(running)
  return readsOf(context, key).newestSucceeded > order
}

/** Resolves once no write of that list is under way (at once when none is). */
export async function listSettled(
  context: DeskContext,
  profileId: string,
  kind: CachedListKind,
): Promise<void> {
  await pendingOf(context).get(`${profileId} ${kind}`)
}

/** A window of the cached list; rows that no longer pass the contract are left out. */
export async function readWindow<T>(
  context: DeskContext,
  kind: CachedListKind,
  row: z.ZodType<T>,
  input: WindowInput,
  state: { error: BridgeError | null },
): Promise<WindowAnswer<T>> {
  await listSettled(context, input.profileId, kind)
  const window = context.cache.listWindow(input.profileId, kind, {
    offset: input.offset,
    limit: input.limit,
    words: queryWords(input.query),
    sort: input.sort,
  })
  const items: T[] = []
  for (const json of window.items) {
    let value: unknown
    try {
      value = parseServiceJson(json)
    } catch {
      continue
    }
    const parsed = row.safeParse(value)
    if (parsed.success) items.push(parsed.data)
  }
  return {
    total: window.total,
    matched: window.matched,
    offset: input.offset,
    items,
    fetchedAt: context.cache.listFetchedAt(input.profileId, kind),
    offline: state.error !== null || context.connectivity.offline(input.profileId),
    error: state.error ?? context.connectivity.lastError(input.profileId),
  }
}

/**
 * Reads the list from the service into a new spool, every row validated (`observer` sees each
 * one too); `order` says when the read began among the list's reads. Throws as the client
 * does; the spool is then already discarded.
 */
async function readIntoSpool(
  context: DeskContext,
  profileId: string,
  kind: CachedListKind,
  operation: ListOperationName,
  observer?: RowSink,
): Promise<{ spool: ListSpool; order: number }> {
  const reads = readsOf(context, `${profileId} ${kind}`)
  reads.began += 1
  const order = reads.began
  const read = readRows(context, profileId, operation, observer)
  reads.running.set(order, read)
  try {
    const spool = await read
    reads.newestSucceeded = Math.max(reads.newestSucceeded, order)
    return { spool, order }
  } finally {
    reads.running.delete(order)
  }
}

async function readRows(
  context: DeskContext,
  profileId: string,
  operation: ListOperationName,
  observer?: RowSink,
): Promise<ListSpool> {
  const spool = context.listSpools.open()
  const sink: RowSink = {
    begin() {
      spool.clear()
      observer?.begin()
    },
    row(row) {
      observer?.row(row)
      spool.add(row.json)
    },
  }
  try {
    await withProfileClient(context, profileId, (client) => client.callRows(operation, sink))
  } catch (error) {
    spool.discard()
    throw error
  }
  return spool
}

/** Replaces the cached list with the spooled rows (one transaction), and frees the spool. */
function storeSpool(
  context: DeskContext,
  profileId: string,
  kind: CachedListKind,
  spool: ListSpool,
  fetchedAt: number,
): number {
  try {
    return context.cache.putListRows(profileId, kind, spool.rows(), fetchedAt)
  } finally {
    spool.discard()
  }
}

/** Sees each row as it passes (e.g. the fields of the models); a new attempt starts again. */
function observing(onRow?: (row: ListRow) => void): RowSink | undefined {
  return onRow === undefined ? undefined : { begin: () => undefined, row: onRow }
}

/**
 * Reads a big list from the service into the cache (one transaction, once every row passed:
 * a row that breaks the contract leaves the cached list as it was). `onRow` sees each
 * validated row as it passes.
 */
export async function fetchIntoCache(
  context: DeskContext,
  profileId: string,
  kind: CachedListKind,
  operation: ListOperationName,
  onRow?: (row: ListRow) => void,
): Promise<number> {
  const { spool } = await readIntoSpool(context, profileId, kind, operation, observing(onRow))
  await listSettled(context, profileId, kind)
  return storeSpool(context, profileId, kind, spool, Date.now())
}

/**
 * Fetch, then the first window; an unreachable service answers with the cached window and
 * offline: true (the screen keeps the list under the offline banner). Other errors throw.
 */
export async function fetchWindow<T>(
  context: DeskContext,
  kind: CachedListKind,
  operation: ListOperationName,
  input: WindowInput,
  onRow?: (row: ListRow) => void,
): Promise<WindowAnswer<T>> {
  const row = LIST_OPERATIONS[operation].row as unknown as z.ZodType<T>
  const { profileId } = input
  const filtered = input.query.trim() !== '' || input.sort !== null
  if (filtered) {
    // Filtered or sorted: the cache does it, so the list is written first.
    try {
      await fetchIntoCache(context, profileId, kind, operation, onRow)
    } catch (error) {
      if (!isConnectivityError(error)) throw error
      return readWindow(context, kind, row, input, { error: bridgeErrorOf(context, error) })
    }
    return readWindow(context, kind, row, input, { error: null })
  }

  // The first window, gathered as the rows pass; answered once every row is checked.
  const items: T[] = []
  let index = 0
  const firstWindow: RowSink = {
    begin() {
      items.length = 0
      index = 0
    },
    row(checked) {
      onRow?.(checked)
      if (index >= input.offset && items.length < input.limit) items.push(checked.value as T)
      index += 1
    },
  }
  let read: { spool: ListSpool; order: number }
  try {
    read = await readIntoSpool(context, profileId, kind, operation, firstWindow)
  } catch (error) {
    if (!isConnectivityError(error)) throw error
    return readWindow(context, kind, row, input, { error: bridgeErrorOf(context, error) })
  }
  const { spool } = read
  const total = spool.count
  const fetchedAt = Date.now()
  const key = `${profileId} ${kind}`
  const pending = pendingOf(context)
  const previous = pending.get(key) ?? Promise.resolve()
  const write = previous
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(async () => {
      // The write waits for the list reads under way, whose answers someone waits for. A read
      // of the same list that began later (the screen opened, then Refresh) replaces this one:
      // then it is not written at all (if that read fails, it is). A profile removed meanwhile
      // keeps nothing in the cache.
      if (
        (await replacedAfterReads(context, key, read.order)) ||
        context.profiles.get(profileId) === undefined
      ) {
        spool.discard()
        return
      }
      storeSpool(context, profileId, kind, spool, fetchedAt)
    })
    .catch((error: unknown) => {
      spool.discard()
      context.events.emit('notice', {
        id: `list-cache-${Date.now()}`,
        level: 'warning',
        message: `The list could not be saved in the local cache: ${bridgeErrorOf(context, error).message}`,
      })
    })
    .finally(() => {
      if (pending.get(key) === write) pending.delete(key)
    })
  pending.set(key, write)
  return {
    total,
    matched: total,
    offset: input.offset,
    items,
    fetchedAt,
    offline: false,
    error: null,
  }
}
