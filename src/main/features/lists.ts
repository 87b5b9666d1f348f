import { setImmediate as nextTurn } from 'node:timers/promises'
import type { z } from 'zod'
import { LIST_OPERATIONS, type ListOperationName } from '../../shared/api'
import type { BridgeError } from '../../shared/bridge'
import type { listWindowInput } from '../../shared/bridge/channels/lists'
import { parseServiceJson } from '../api/json'
import type { CachedListKind } from '../cache'
import { createListWorker } from '../workers/list-worker-client'
import type { ListRead, ListReadOptions, ListWorker } from '../workers/list-worker-client'
import type { DeskContext } from './context'
import { bridgeErrorOf, isConnectivityError, withProfileClient } from './context'

/*
 * Big lists in windows, for the sessions and inference screens. A fetch reads the
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

/** The desk's list worker, started on the first big list and ended with the desk. */
const listWorkers = new WeakMap<DeskContext, ListWorker>()

export function listWorkerOf(context: DeskContext): ListWorker {
  let worker = listWorkers.get(context)
  if (worker === undefined) {
    const cacheFile = context.cache.extend((db) => db.name)
    const started = createListWorker(cacheFile)
    context.onClose(() => started.close())
    listWorkers.set(context, started)
    worker = started
  }
  return worker
}

/**
 * The whole cached list written in the list worker as `frame.opening` + a JSON array of its
 * rows (each checked with `operation`'s row schema; rows that no longer pass are left out) +
 * `,"fetchedAt":…` + `frame.closing`; `fetchedAt` null when it was never fetched.
 */
export async function cachedListJsonOf(
  context: DeskContext,
  profileId: string,
  kind: CachedListKind,
  operation: ListOperationName,
  frame: { opening: string; closing: string },
): Promise<{ json: Buffer; fetchedAt: number | null }> {
  await listSettled(context, profileId, kind)
  return listWorkerOf(context).cachedListJson(operation, profileId, kind, frame)
}

/** What a read of a big list hands back: its worker job, and when it began among the list's. */
interface ListReadInWorker {
  read: ListRead
  order: number
}

/**
 * Reads the list from the service into the list worker, every row validated there; `order`
 * says when the read began among the list's reads. Throws as the client does; the rows read
 * are then already discarded.
 */
async function readIntoWorker(
  context: DeskContext,
  profileId: string,
  kind: CachedListKind,
  operation: ListOperationName,
  options: ListReadOptions,
): Promise<ListReadInWorker> {
  const reads = readsOf(context, `${profileId} ${kind}`)
  reads.began += 1
  const order = reads.began
  const read = listWorkerOf(context).read(operation, options)
  const reading = withProfileClient(context, profileId, (client) =>
    client.callRows(operation, read.sink),
  )
  reads.running.set(order, reading)
  try {
    await reading
    reads.newestSucceeded = Math.max(reads.newestSucceeded, order)
    return { read, order }
  } catch (error) {
    read.discard()
    throw error
  } finally {
    reads.running.delete(order)
  }
}

/** Replaces the cached list with the rows read (one transaction, in the worker). */
async function storeRead(
  context: DeskContext,
  profileId: string,
  kind: CachedListKind,
  read: ListRead,
  fetchedAt: number,
): Promise<number> {
  const { count } = await read.store(profileId, kind, fetchedAt)
  context.cache.listWritten(profileId, kind)
  return count
}

/** Reads every row, none kept as a value: for a list written to the cache before it is read. */
const NO_WINDOW: ListReadOptions = { window: { offset: 0, limit: 0 }, collectKeys: false }

/**
 * Reads a big list from the service into the cache (one transaction, once every row passed:
 * a row that breaks the contract leaves the cached list as it was). `onKeys` gets the field
 * names the rows carry (first-seen order) once the read succeeded.
 */
export async function fetchIntoCache(
  context: DeskContext,
  profileId: string,
  kind: CachedListKind,
  operation: ListOperationName,
  onKeys?: (keys: string[]) => void,
): Promise<number> {
  const options = { ...NO_WINDOW, collectKeys: onKeys !== undefined }
  const { read } = await readIntoWorker(context, profileId, kind, operation, options)
  onKeys?.(read.answer().keys)
  await listSettled(context, profileId, kind)
  return storeRead(context, profileId, kind, read, Date.now())
}

/**
 * Fetch, then the first window; an unreachable service answers with the cached window and
 * offline: true (the screen keeps the list under the offline banner). Other errors throw.
 * `onKeys` as for fetchIntoCache.
 */
export async function fetchWindow<T>(
  context: DeskContext,
  kind: CachedListKind,
  operation: ListOperationName,
  input: WindowInput,
  onKeys?: (keys: string[]) => void,
): Promise<WindowAnswer<T>> {
  const row = LIST_OPERATIONS[operation].row as unknown as z.ZodType<T>
  const { profileId } = input
  const filtered = input.query.trim() !== '' || input.sort !== null
  if (filtered) {
    // Filtered or sorted: the cache does it, so the list is written first.
    try {
      await fetchIntoCache(context, profileId, kind, operation, onKeys)
    } catch (error) {
      if (!isConnectivityError(error)) throw error
      return readWindow(context, kind, row, input, { error: bridgeErrorOf(context, error) })
    }
    return readWindow(context, kind, row, input, { error: null })
  }

  // The first window, gathered by the worker as the rows pass; answered once every row is
  // checked.
  let reading: ListReadInWorker
  try {
    reading = await readIntoWorker(context, profileId, kind, operation, {
      window: { offset: input.offset, limit: input.limit },
      collectKeys: onKeys !== undefined,
    })
  } catch (error) {
    if (!isConnectivityError(error)) throw error
    return readWindow(context, kind, row, input, { error: bridgeErrorOf(context, error) })
  }
  const { read, order } = reading
  const answer = read.answer()
  onKeys?.(answer.keys)
  const fetchedAt = Date.now()
  const key = `${profileId} ${kind}`
  const pending = pendingOf(context)
  const previous = pending.get(key) ?? Promise.resolve()
  const write = previous
    .then(() => nextTurn())
    .then(async () => {
      // The write waits for the list reads under way, whose answers someone waits for. A read
      // of the same list that began later (the screen opened, then Refresh) replaces this one:
      // then it is not written at all (if that read fails, it is). A profile removed meanwhile
      // keeps nothing in the cache.
      if (
        (await replacedAfterReads(context, key, order)) ||
        context.profiles.get(profileId) === undefined
      ) {
        read.discard()
        return
      }
      await storeRead(context, profileId, kind, read, fetchedAt)
    })
    .catch((error: unknown) => {
      read.discard()
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
    total: answer.count,
    matched: answer.count,
    offset: input.offset,
    items: answer.window as T[],
    fetchedAt,
    offline: false,
    error: null,
  }
}
