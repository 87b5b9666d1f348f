import { defaultSortLocale } from '../../../shared/certificate-order'
import type { CertificateCache } from '../../cache/certificates'
import type { DeskContext } from '../context'
import { listWorkerOf } from '../lists'

/*
 * Keeps each profile's certificates ranked in the list's default order (cache schema v17), in
 * the locale the screen sorts in, so the first screenful is an indexed read of ~100 rows on
 * main instead of every name read and compared there. The ranking itself runs in the list
 * worker (~45 ms for 10,000): after every refresh, and after a first screenful that found the
 * places missing (an upload voided them, the screen's locale changed, a cache from before v17).
 */

/**
 * A read that found no places waits this long before the worker is asked: at start, the worker
 * (a thread, its modules, its SQLite connection) would compete with the first paint for the CPU.
 */
export const RANK_AFTER_READ_MS = 2_000

export interface NameRanking {
  /** A first screenful was read in `locale`: the profile is ranked in it soon, unless it is already. */
  readIn(profileId: string, locale: string): void
  /** A refresh rewrote the profile's rows: ranked again now, in the last locale read. */
  rewritten(profileId: string): void
}

export function createNameRanking(
  context: DeskContext,
  certificates: Pick<CertificateCache, 'rankedIn'>,
): NameRanking {
  let locale = defaultSortLocale()
  /** Profiles being ranked; `true` when another write came meanwhile (rank once more). */
  const running = new Map<string, boolean>()
  /** A profile's ranking asked for by a read, at most one waiting per profile. */
  const waiting = new Map<string, ReturnType<typeof setTimeout>>()
  context.onClose(() => {
    for (const timer of waiting.values()) clearTimeout(timer)
    waiting.clear()
  })

  function rank(profileId: string): void {
    if (running.has(profileId)) {
      running.set(profileId, true)
      return
    }
    if (certificates.rankedIn(profileId) === locale) return
    running.set(profileId, false)
    void listWorkerOf(context)
      .rankCertificateNames(profileId, locale)
      // Only a head start: a read without places still answers, the old way.
      .catch(() => undefined)
      .finally(() => {
        const again = running.get(profileId) === true
        running.delete(profileId)
        if (again) rank(profileId)
      })
  }

  return {
    readIn(profileId, asked) {
      locale = asked
      // Whether the places are there is rank's to ask, off the read that answers the page.
      if (waiting.has(profileId)) return
      const timer = setTimeout(() => {
        waiting.delete(profileId)
        rank(profileId)
      }, RANK_AFTER_READ_MS)
      timer.unref?.()
      waiting.set(profileId, timer)
    },
    rewritten: rank,
  }
}
