import { useCallback, useEffect, useMemo } from 'react'
import type { Profile } from '../../../shared/bridge'
import { bridge } from '../bridge'
import { concerns } from './cache-events'
import { useBridgeRead } from './use-bridge-read'

/*
 * Suggestions for an id field: what the user typed before on this profile (newest first), then
 * the objects of that kind the service's answers carried (with their names, so the browser's
 * list matches a name as well as an id), then, on the embedded sandbox, the ids its seed holds.
 * Remember a value once it was used successfully, so the list holds ids that worked.
 */

/** How many known objects of a kind are offered (newest sighting first). */
const KNOWN_LIMIT = 50

/** What an id field needs to show names beside ids and read a pasted console link. */
export interface KnownIds {
  /** The suggestion kind ("migration", "node"...): which id a pasted link gives. */
  kind: string
  /** Names of suggested ids, by id. */
  names: ReadonlyMap<string, string>
}

export interface IdSuggestions extends KnownIds {
  suggestions: string[]
  remember(value: string): void
}

export type SandboxSeed = Record<string, unknown>

let seedRequest: Promise<SandboxSeed | null> | null = null

/** The embedded sandbox's seed ids, asked once per page load; null when it is not running. */
export function sandboxSeed(): Promise<SandboxSeed | null> {
  seedRequest ??= bridge.call('sandbox.seed', {}).catch(() => {
    seedRequest = null
    return null
  })
  return seedRequest
}

export function useIdSuggestions(
  profile: Pick<Profile, 'id' | 'kind'>,
  kind: string,
  fromSeed?: (seed: SandboxSeed) => string[],
): IdSuggestions {
  const seedKey = `${profile.id}:${kind}`
  // Suggestions only help: a failed read leaves the field a plain input that works as before, so
  // neither read shows its error (the seed's is already null when the sandbox is not running).
  const recent = useBridgeRead(
    () => bridge.call('recents.list', { profileId: profile.id, kind }),
    [profile.id, kind],
    [],
  )
  const seeded = useBridgeRead(
    async () => {
      if (profile.kind !== 'sandbox' || !fromSeed) return { key: seedKey, values: [] }
      const seed = await sandboxSeed()
      return { key: seedKey, values: seed ? safeSeed(fromSeed, seed) : [] }
    },
    // fromSeed is a picker given inline by callers; it does not change what is asked.
    [profile.kind, seedKey],
    { key: '', values: [] as string[] },
  )
  const known = useBridgeRead(
    () => bridge.call('knownObjects.search', { profileId: profile.id, kind, limit: KNOWN_LIMIT }),
    [profile.id, kind],
    [],
  )
  const reloadKnown = known.reload
  useEffect(
    () =>
      bridge.on('cache.changed', (change) => {
        if (concerns(change, ['knownObjects'], profile.id)) reloadKnown()
      }),
    [profile.id, reloadKnown],
  )
  const setRecent = recent.setValue

  const remember = useCallback(
    (value: string) => {
      const trimmed = value.trim()
      if (trimmed === '') return
      setRecent((current) => [trimmed, ...current.filter((item) => item !== trimmed)])
      void bridge
        .call('recents.remember', { profileId: profile.id, kind, value: trimmed })
        .catch(() => undefined)
    },
    [profile.id, kind, setRecent],
  )

  // Seed ids only for the profile and kind they were read for.
  const seededNow =
    profile.kind === 'sandbox' && seeded.value.key === seedKey ? seeded.value.values : []
  const knownNow = useMemo(() => (known.error ? [] : known.value), [known.error, known.value])
  const suggestions = [
    ...new Set([
      ...(recent.error ? [] : recent.value),
      ...knownNow.map((object) => object.id),
      ...seededNow,
    ]),
  ]
  const names = useMemo(
    () =>
      new Map(
        knownNow.flatMap((object) => (object.name === null ? [] : [[object.id, object.name]])),
      ),
    [knownNow],
  )
  return { kind, suggestions, names, remember }
}

function safeSeed(pick: (seed: SandboxSeed) => string[], seed: SandboxSeed): string[] {
  try {
    return pick(seed).filter((value) => typeof value === 'string')
  } catch {
    // The seed's shape is the sandbox's business; a picker that no longer fits offers nothing.
    return []
  }
}
