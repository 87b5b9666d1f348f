import { useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import { PROFILE_STATE_WORDS, profileStateOf } from '../../app/profile-state'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { Button } from '../../ui/Button'
import { RelativeTime } from '../../ui/RelativeTime'
import { useOverviewStore } from './store'
import './profile-state.css'

/*
 * The Overview's State column and its "Read again": the state is the one account of the
 * profile's connectivity (app/profile-state.ts, as the profile switcher says it), with the time
 * of the call that found it; Read again calls every signed-in profile's service now
 * (connectivity.check), then reads the caches again.
 */

/** "Online · checked 2 min ago", "Offline · checked just now" (the error in the tooltip). */
export function ProfileStateCell({ profile }: { profile: Profile }) {
  const connectivity = useAppStore((s) => s.connectivity[profile.id])
  const state = profileStateOf(profile, connectivity)
  const checkedAt = state === 'signed-out' ? null : (connectivity?.checkedAt ?? null)
  const error = connectivity?.offline ? connectivity.error : null
  return (
    <span
      className={`overview-state overview-state-${state}`}
      data-state={state}
      title={error ? `${error.code} — ${error.message}` : undefined}
    >
      {PROFILE_STATE_WORDS[state]}
      {checkedAt === null ? null : (
        <span className="overview-checked">
          {' · checked '}
          <RelativeTime at={checkedAt} />
        </span>
      )}
    </span>
  )
}

/** Calls every service, then reads the overview again; says when a call could not be made. */
export function ReadAgainButton() {
  const [checking, setChecking] = useState(false)
  async function readAgain() {
    setChecking(true)
    try {
      const { connectivity } = await bridge.call('connectivity.check', {})
      useAppStore.getState().applyReach(connectivity)
    } catch (error) {
      useAppStore.getState().addNotice({
        id: 'overview-read-again',
        level: 'error',
        message: `Could not ask the services: ${asBridgeError(error).message}`,
      })
    } finally {
      setChecking(false)
    }
    await useOverviewStore.getState().loadOverview()
  }
  return (
    <Button onClick={() => void readAgain()} busy={checking}>
      {checking ? 'Asking each service…' : 'Read again'}
    </Button>
  )
}
