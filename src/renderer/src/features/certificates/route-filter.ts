import { useEffect, useRef, useState } from 'react'
import type { CertificateFilter, Profile } from '../../../../shared/bridge'
import { useOperationRequest, type OperationRequest } from '../../app/operation-request'
import { useAppStore } from '../../app/store'
import type { RouteParams } from '../../app/routes'
import { expiryWindowOf, type ExpiryWindow } from './expiry-window'
import { useCertificatesStore } from './store'

export { expiryWindowLabel, inExpiryWindow } from './expiry-window'

/*
 * What the Overview and the palette open the certificates screen with, in the hash:
 * `expiry=expired|7|30` shows only what that figure counted (system certificates included, as
 * the figure counts every cached one); `search=<name>&select=<id>` finds one certificate and
 * selects it, showing its details. The palette's "export certificate <id>" (`op=exportCertificate`
 * and the id) selects that certificate and opens its export.
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
    if (expiry === null && search === undefined) return
    // A link opens with its own filter: the figure clicked counted every cached
    // certificate, a found name is looked for among them all; a search, type or status typed
    // before would show fewer rows than the link said.
    const wanted: CertificateFilter = {
      search: search ?? '',
      type: '',
      status: '',
      showSystem: true,
    }
    const { filter } = state
    const differs =
      (filter.search ?? '') !== wanted.search ||
      (filter.type ?? '') !== '' ||
      (filter.status ?? '') !== '' ||
      filter.showSystem !== true
    if (differs) state.setFilter(wanted)
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

const EXPORT_CERTIFICATE = ['exportCertificate'] as const

/** Every certificate of the profile: where a certificate named only by its id is looked for. */
const EVERY_CERTIFICATE: CertificateFilter = { search: '', type: '', status: '', showSystem: true }

function showsEvery(filter: CertificateFilter): boolean {
  return !filter.search && !filter.type && !filter.status && filter.showSystem === true
}

export interface ExportRequestState {
  /** Why the certificate the palette or a link named is not exported: shown, never silent. */
  problem: string | null
  dismiss(): void
}

/**
 * `op=exportCertificate&id=<id>`: once the profile's whole list is here, the certificate is
 * selected and `open` is called (the screen opens the export). A certificate the filters hide
 * is looked for in every certificate, then on the service; one found nowhere is said so.
 * `blocked` (signed out, offline) selects it but says why the export does not open.
 */
export function useExportCertificateRequest(
  profile: Pick<Profile, 'id' | 'name' | 'signedIn'>,
  blocked: string | null,
  open: () => void,
): ExportRequestState {
  const [problem, setProblem] = useState<string | null>(null)
  /** The rows when the filters were cleared for a request: the list read after differs. */
  const widened = useRef<{ request: OperationRequest; rows: readonly unknown[] } | null>(null)
  const refreshed = useRef<OperationRequest | null>(null)

  useOperationRequest(EXPORT_CERTIFICATE, (request) => {
    const id = request.ids['id']
    // Without an id the export waits for a selection, as the Export… button does.
    if (id === undefined) return
    const state = useCertificatesStore.getState()
    if (state.profileId !== profile.id || !state.loaded || state.firstOf !== null) return false
    if (!state.rows.some((row) => row.id === id)) {
      if (!showsEvery(state.filter)) {
        widened.current = { request, rows: state.rows }
        state.setFilter(EVERY_CERTIFICATE)
        return false
      }
      const wide = widened.current
      if (wide?.request === request && wide.rows === state.rows) return false
      if (state.refreshing) return false
      if (refreshed.current !== request && profile.signedIn && blocked === null) {
        // The cache may be older than the service's list: it is asked once.
        refreshed.current = request
        void state.refresh()
        return false
      }
      setProblem(`No certificate with id ${id} is among the certificates of ${profile.name}.`)
      return
    }
    state.select([id], { anchorId: id, activeId: id })
    if (blocked === null) {
      setProblem(null)
      open()
    } else {
      setProblem(`The certificate is selected, but it cannot be exported now: ${blocked}.`)
    }
  })

  return { problem, dismiss: () => setProblem(null) }
}
