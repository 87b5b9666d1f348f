import { useEffect, useRef } from 'react'
import { useAppStore } from '../../app/store'
import type { RouteParams } from '../../app/routes'
import { expiryWindowOf, type ExpiryWindow } from './expiry-window'
import { useCertificatesStore } from './store'

export { EXPIRY_WINDOW_LABELS, inExpiryWindow } from './expiry-window'

/*
 * What the Overview and the palette open the certificates screen with (issue 21), in the hash:
 * `expiry=expired|7|30` shows only what that figure counted (system certificates included, as
 * the figure counts every cached one); `search=<name>&select=<id>` finds one certificate and
 * selects it, showing its details.
 */

const NO_PARAMS: RouteParams = {}

/** The screen's parameters, applied once the profile's list is loaded. */
export function useCertificateRouteParams(profileId: string): ExpiryWindow | null {
  const params = useAppStore((s) => (s.route === 'certificates' ? s.routeParams : NO_PARAMS))
  const state = useCertificatesStore()
  const ready = state.profileId === profileId && state.loaded
  const expiry = expiryWindowOf(params)
  const search = params['search']
  const select = params['select']
  const applied = useRef<string | null>(null)

  useEffect(() => {
    if (!ready) return
    const key = `${profileId}|${expiry ?? ''}|${search ?? ''}`
    if (applied.current === key) return
    applied.current = key
    const patch: { showSystem?: boolean; search?: string } = {}
    if (expiry !== null && state.filter.showSystem !== true) patch.showSystem = true
    if (search !== undefined && state.filter.search !== search) patch.search = search
    if (search !== undefined && state.filter.showSystem !== true) patch.showSystem = true
    if (Object.keys(patch).length > 0) state.setFilter(patch)
  }, [ready, profileId, expiry, search, state])

  const selected = useRef<string | null>(null)
  useEffect(() => {
    if (!ready || select === undefined || selected.current === `${profileId}|${select}`) return
    if (!state.rows.some((row) => row.id === select)) return
    selected.current = `${profileId}|${select}`
    state.select([select], { anchorId: select, activeId: select })
  }, [ready, profileId, select, state])

  return expiry
}
