import { createContext, useEffect } from 'react'
import { create } from 'zustand'
import type { KnownObject } from '../../../shared/bridge/channels/known-objects'
import { bridge } from '../bridge'

/*
 * What main remembers of the ids the app shows (names beside ids), asked in batches:
 * every id a render asks for within one turn goes in one `knownObjects.lookup` per profile.
 * Answers are kept until main says its known objects changed for that profile, then the ids
 * shown are asked again. A failed read leaves ids without names: names only help.
 */

interface KnownState {
  /** By `profileId \0 id`: what is known, or null once asked and nothing is. */
  entries: Record<string, KnownObject | null>
}

/**
 * The profile whose known objects name the ids shown below it (an operation screen provides
 * its profile), so a table deep inside needs no profile passed down.
 */
export const KnownObjectsProfile = createContext<string | null>(null)

const useKnownStore = create<KnownState>()(() => ({ entries: {} }))

const keyOf = (profileId: string, id: string) => `${profileId}\u0000${id}`
const pending = new Map<string, Set<string>>()
const asked = new Map<string, Set<string>>()
let flushScheduled = false
let listening = false
const BATCH = 500

function request(profileId: string, id: string) {
  const ids = pending.get(profileId) ?? new Set<string>()
  ids.add(id)
  pending.set(profileId, ids)
  const everAsked = asked.get(profileId) ?? new Set<string>()
  everAsked.add(id)
  asked.set(profileId, everAsked)
  listenOnce()
  if (flushScheduled) return
  flushScheduled = true
  queueMicrotask(flush)
}

function flush() {
  flushScheduled = false
  const batches = [...pending]
  pending.clear()
  for (const [profileId, ids] of batches) {
    const all = [...ids]
    for (let start = 0; start < all.length; start += BATCH) {
      void lookup(profileId, all.slice(start, start + BATCH))
    }
  }
}

async function lookup(profileId: string, ids: string[]) {
  let found: KnownObject[]
  try {
    found = await bridge.call('knownObjects.lookup', { profileId, ids })
  } catch {
    return
  }
  const next: Record<string, KnownObject | null> = {}
  for (const id of ids) next[keyOf(profileId, id)] = null
  // Newest sighting first: the first of an id is the one shown.
  for (const object of [...found].reverse()) next[keyOf(profileId, object.id)] = object
  useKnownStore.setState((state) => ({ entries: { ...state.entries, ...next } }))
}

function listenOnce() {
  if (listening) return
  listening = true
  bridge.on('cache.changed', (change) => {
    if (!change.topics.includes('knownObjects')) return
    const profiles = change.profileId === null ? [...asked.keys()] : [change.profileId]
    for (const profileId of profiles) {
      for (const id of asked.get(profileId) ?? []) request(profileId, id)
    }
  })
}

/** What is known of `id` on the profile, and whether main has answered yet. */
export interface KnownLookup {
  object: KnownObject | null
  /** False until main answered for this id (or when there is no id or profile to ask). */
  settled: boolean
}

export function useKnownLookup(profileId: string | null, id: string | null): KnownLookup {
  const key = profileId !== null && id !== null && id !== '' ? keyOf(profileId, id) : null
  const entry = useKnownStore((state) => (key === null ? undefined : state.entries[key]))
  useEffect(() => {
    if (profileId === null || id === null || id === '' || entry !== undefined) return
    request(profileId, id)
  }, [profileId, id, entry])
  return { object: entry ?? null, settled: entry !== undefined }
}

/** What is known of `id` on the profile; null while unknown (or not asked: no id, no profile). */
export function useKnownObject(profileId: string | null, id: string | null): KnownObject | null {
  return useKnownLookup(profileId, id).object
}
