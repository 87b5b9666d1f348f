import type { Profile } from '../../../shared/bridge'
import type { Connectivity } from './store'

/*
 * A profile's state in one word, from the one account of its connectivity (the app store's
 * mirror of main's tracker): the profile switcher and the Overview both say it with these
 * functions, so one cannot say "Signed in" or "Online" while the other says "Offline".
 */

export type ProfileState = 'signed-out' | 'unverified' | 'offline' | 'online' | 'unchecked'

/**
 * Signed out first (nothing can be asked), then a profile saved unchecked (its token never
 * checked, whatever its service did since), then what the last call found; "not checked" when
 * no call was made this run (never "online" on no evidence).
 */
export function profileStateOf(
  profile: Pick<Profile, 'signedIn' | 'unverified'>,
  connectivity: Connectivity | undefined,
): ProfileState {
  if (!profile.signedIn) return 'signed-out'
  if (profile.unverified === true) return 'unverified'
  if (connectivity?.offline) return 'offline'
  if (connectivity?.checkedAt != null) return 'online'
  return 'unchecked'
}

/** The Overview's word for each state. */
export const PROFILE_STATE_WORDS: Record<ProfileState, string> = {
  'signed-out': 'Signed out',
  unverified: 'Not verified yet',
  offline: 'Offline',
  online: 'Online',
  unchecked: 'Not checked yet',
}

/**
 * The switcher's line under the profile's name: the same state, said with what it means
 * there (the token, the saved data).
 */
export function switcherStateLabel(
  profile: Pick<Profile, 'signedIn' | 'unverified' | 'tokenStorage'>,
  state: ProfileState,
): string {
  switch (state) {
    case 'signed-out':
      return 'Signed out'
    case 'unverified':
      return 'Not verified yet · saved while the service was unreachable'
    case 'offline':
      return 'Offline · showing saved data'
    case 'online':
    case 'unchecked':
      return profile.tokenStorage === 'session' ? 'Signed in · this session only' : 'Signed in'
  }
}

/**
 * The colour a new profile starts with: the first of the palette no profile wears yet (two
 * profiles in one colour look the same in the switcher, the Overview and its chart), the
 * palette's first when every colour is taken.
 */
export function firstUnusedColor(
  palette: readonly string[],
  profiles: readonly Pick<Profile, 'color'>[],
): string {
  const worn = new Set(profiles.map((profile) => profile.color.toLowerCase()))
  return palette.find((color) => !worn.has(color.toLowerCase())) ?? palette[0] ?? ''
}
