import type { Cache } from './index'

/*
 * A removed profile's rows go with it: each area store that keeps rows per profile forgets them
 * when the cache announces `clearProfile` (the profile was removed or signed out for good).
 */
export function forgetWhenProfileCleared(
  cache: Pick<Cache, 'onChange'>,
  forget: (profileId: string) => void,
): void {
  cache.onChange((change) => {
    if (change.name === 'clearProfile' && change.profileId !== null) forget(change.profileId)
  })
}
