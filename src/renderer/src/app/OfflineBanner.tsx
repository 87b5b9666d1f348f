import { formatAge } from '../lib/time'
import { useNow } from '../ui/useNow'
import { selectActiveProfile, useAppStore } from './store'
import '../ui/banner.css'
import './offline-banner.css'

/** Shown while the active profile's service cannot be reached: the data on screen is old. */
export function OfflineBanner() {
  const profile = useAppStore(selectActiveProfile)
  const connectivity = useAppStore((s) => (profile ? s.connectivity[profile.id] : undefined))
  const now = useNow()
  if (!profile || !connectivity?.offline) return null
  const age =
    connectivity.dataFetchedAt === null
      ? 'no saved data yet'
      : `showing data from ${formatAge(connectivity.dataFetchedAt, now)}`
  return (
    <div className="banner banner-offline" role="status" aria-label="Offline">
      <div className="banner-text">
        <div className="banner-title">
          Offline — {age}; actions that need the service are unavailable
        </div>
        <div className="banner-message">
          {profile.name} ({profile.baseUrl}) cannot be reached
          {connectivity.error ? `: ${connectivity.error.code} — ${connectivity.error.message}` : ''}
        </div>
      </div>
    </div>
  )
}
