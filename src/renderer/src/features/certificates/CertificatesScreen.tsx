import { useMemo, useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { Button } from '../../ui/Button'
import { DismissibleBanner } from '../../ui/DismissibleBanner'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { FilterSelect } from '../../ui/FilterSelect'
import { ScreenHeader, type ScreenHeading } from '../../ui/ScreenHeader'
import { shownError, useCachedList } from '../../lib/cached-list-store'
import { useNow } from '../../ui/useNow'
import { CertificateList } from './CertificateList'
import { CompletenessBanner } from './CompletenessBanner'
import { DetailsPane } from './DetailsPane'
import { ExportDialog } from './ExportDialog'
import { FolderTree, type FolderSelection } from './FolderTree'
import { statusWords } from './field-labels'
import { distinctValues, expiryCounts, folderTree, sortRows } from './model'
import { MoveCertificatesDialog, MoveFolderDialog } from './MoveDialogs'
import {
  expiryWindowLabel,
  inExpiryWindow,
  useCertificateRouteParams,
  useExportCertificateRequest,
} from './route-filter'
import { useCertificatesStore } from './store'
import { UploadDialog } from './UploadDialog'
import './certificates.css'

/*
 * The certificate manager: filters (sent to the service; applied to the cache offline), the
 * folder tree, the virtualised list with expiry at a glance, the details pane, and the upload,
 * export and move dialogs.
 */

const KNOWN_TYPES = ['letsencrypt', 'custom', 'internal']
const KNOWN_STATUSES = ['active', 'expiring_soon', 'expired', 'revoked']

type OpenDialog = 'upload' | 'export' | 'move' | 'moveFolder' | null

export function CertificatesScreen({ profile }: { profile: Profile }) {
  const state = useCertificatesStore()
  /** A filter select's value and its change ('' when any, as the search box clears). */
  const filterOn = (key: 'type' | 'status') => ({
    value: state.filter[key],
    onChange: (value: string | null) => state.setFilter({ [key]: value ?? '' }),
  })
  const mode = useAppStore((s) => s.mode) ?? 'web'
  const offline = useAppStore((s) => s.connectivity[profile.id]?.offline ?? false)
  const now = useNow()
  const [folder, setFolder] = useState<FolderSelection>({ kind: 'all' })
  const [dialog, setDialog] = useState<OpenDialog>(null)
  const [notice, setNotice] = useState<string | null>(null)
  useCachedList(state, profile)
  // The Overview's figures and the palette open this screen filtered.
  const expiryWindow = useCertificateRouteParams(profile.id)

  const current = state.profileId === profile.id
  /** How many the list holds while only its first screenful is here (the app opened on it). */
  const firstOf = current ? state.firstOf : null
  const tree = useMemo(() => folderTree(state.folders), [state.folders])
  // The clock matters to the list only while it is filtered by expiry.
  const filterNow = expiryWindow === null ? 0 : now
  const inFolder = useMemo(() => {
    const listed =
      expiryWindow === null
        ? state.rows
        : state.rows.filter((row) => inExpiryWindow(row, expiryWindow, filterNow))
    if (folder.kind === 'all') return listed
    if (folder.kind === 'none') return listed.filter((row) => row.folderId === null)
    const prefix = folder.node.path
    return listed.filter(
      (row) =>
        row.folderId === folder.node.id ||
        (row.folderPath.length >= prefix.length &&
          prefix.every((name, index) => row.folderPath[index] === name)),
    )
  }, [state.rows, folder, expiryWindow, filterNow])
  const rows = useMemo(() => sortRows(inFolder, state.sort), [inFolder, state.sort])
  const counts = useMemo(() => expiryCounts(inFolder, now), [inFolder, now])
  // Hidden system certificates are counted over the whole list: said with it, not a folder.
  const systemHidden = current && folder.kind === 'all' ? state.systemHidden : 0
  const selectedRows = rows.filter((row) => state.selected.has(row.id))
  const single = selectedRows.length === 1 ? selectedRows[0] : undefined
  const types = useMemo(
    () => distinctValues(KNOWN_TYPES, state.rows, (row) => row.type),
    [state.rows],
  )
  const statuses = useMemo(
    () => distinctValues(KNOWN_STATUSES, state.rows, (row) => row.status),
    [state.rows],
  )

  const needsService = !profile.signedIn
    ? 'Signed out: sign in first'
    : offline
      ? 'Unavailable while the service cannot be reached'
      : null
  const error = shownError(state, profile.id)
  // The palette's "export certificate <id>": selected in the whole list, its export opened.
  const exportRequest = useExportCertificateRequest(profile, needsService, () => {
    setFolder({ kind: 'all' })
    setDialog('export')
  })

  function afterChange(message: string) {
    setDialog(null)
    setNotice(message)
    void state.refresh()
  }

  return (
    <section className="screen cert-screen" aria-labelledby={HEADING.id}>
      <ScreenHeader heading={HEADING} profileName={profile.name} list={{ store: state, profile }}>
        <Button
          variant="primary"
          onClick={() => setDialog('upload')}
          disabled={needsService !== null}
          title={needsService ?? 'Upload a certificate and its private key'}
        >
          Upload…
        </Button>
        <Button
          onClick={() => setDialog('export')}
          disabled={needsService !== null || single === undefined}
          title={
            needsService ?? (single ? 'Save this certificate to a file' : 'Select one certificate')
          }
        >
          Export…
        </Button>
        <Button
          onClick={() => setDialog('move')}
          disabled={needsService !== null || selectedRows.length === 0}
          title={needsService ?? 'Move the selected certificates to a folder'}
        >
          Move to folder…
        </Button>
        <Button
          onClick={() => setDialog('moveFolder')}
          disabled={needsService !== null}
          title={needsService ?? 'Move a folder under another, or to the top level'}
        >
          Move folder…
        </Button>
      </ScreenHeader>

      <div className="cert-filters" role="search" aria-label="Filter certificates">
        <input
          className="input cert-search"
          type="search"
          aria-label="Search"
          placeholder="Search name, common name, SANs"
          value={state.filter.search ?? ''}
          onChange={(event) => state.setFilter({ search: event.target.value })}
        />
        <FilterSelect
          label="Type"
          any="Any type"
          choices={types.map((type) => ({ value: type, text: type }))}
          {...filterOn('type')}
        />
        <FilterSelect
          label="Status"
          any="Any status"
          choices={statuses.map((status) => ({ value: status, text: statusWords(status) }))}
          {...filterOn('status')}
        />
        <label className="cert-check">
          <input
            type="checkbox"
            checked={state.filter.showSystem === true}
            onChange={(event) => state.setFilter({ showSystem: event.target.checked })}
          />
          Show system certificates
        </label>
        {expiryWindow === null ? null : (
          <span className="cert-expiry-filter" role="status" aria-label="Expiry filter">
            {expiryWindowLabel(expiryWindow)}{' '}
            <Button size="small" onClick={() => useAppStore.getState().navigate('certificates')}>
              Show all
            </Button>
          </span>
        )}
      </div>

      {notice ? (
        <DismissibleBanner tone="success" onDismiss={() => setNotice(null)}>
          {notice}
        </DismissibleBanner>
      ) : null}
      {exportRequest.problem ? (
        <DismissibleBanner
          tone="warning"
          label="Certificate not exported"
          onDismiss={exportRequest.dismiss}
        >
          {exportRequest.problem}
        </DismissibleBanner>
      ) : null}
      {current && state.completeness ? (
        <CompletenessBanner completeness={state.completeness} />
      ) : null}
      <ErrorBanner error={error} context="Could not load certificates" onRetry={state.refresh} />

      <p className="cert-counts" aria-label="Counts">
        {firstOf !== null ? (
          // The first screenful is shown; the counts wait for the whole list.
          <>
            <span>
              <strong>{firstOf}</strong> certificates
            </span>
            <span role="status">Reading all of them…</span>
          </>
        ) : (
          <>
            <span>
              <strong>{rows.length}</strong> {rows.length === 1 ? 'certificate' : 'certificates'}
              {systemHidden > 0 ? ' shown' : null}
            </span>
            {systemHidden > 0 ? (
              // The Overview counts every cached certificate; said here so the two add up.
              <span className="cert-system-hidden">
                <strong>{systemHidden}</strong> system hidden{' '}
                <Button size="small" onClick={() => state.setFilter({ showSystem: true })}>
                  Show
                </Button>
              </span>
            ) : null}
            <span className={counts.expired > 0 ? 'cert-count-expired' : undefined}>
              <strong>{counts.expired}</strong> expired
            </span>
            <span className={counts.soon > 0 ? 'cert-count-soon' : undefined}>
              <strong>{counts.soon}</strong> expiring within 30 days
            </span>
          </>
        )}
        {selectedRows.length > 0 ? (
          <span>
            <strong>{selectedRows.length}</strong> selected
          </span>
        ) : null}
        {single ? null : (
          // No details pane while none or several are selected: the list takes its width.
          <span className="cert-details-hint">
            {selectedRows.length > 1
              ? 'Select one certificate to see its details'
              : 'Select a certificate to see its details'}
          </span>
        )}
      </p>

      {/* Tree | list | details side by side in a wide window; below ~900 px of screen the
          details go under the list (certificates.css). */}
      <div className={single ? 'cert-body has-details' : 'cert-body'}>
        <FolderTree
          tree={tree}
          selection={folder}
          onSelect={(selection) => {
            setFolder(selection)
          }}
        />
        {current && !state.loaded ? (
          <p className="loading" role="status">
            Loading certificates…
          </p>
        ) : (
          <CertificateList
            rows={rows}
            now={now}
            sort={state.sort}
            onSort={state.setSort}
            selected={state.selected}
            anchorId={state.anchorId}
            activeId={state.activeId}
            onSelect={(ids, options) => state.select(ids, options)}
            empty={
              state.fetchedAt === null
                ? 'No certificates saved for this profile yet.'
                : 'No certificates match.'
            }
          />
        )}
        {single ? (
          <DetailsPane profileId={profile.id} row={single} offline={offline} now={now} />
        ) : null}
      </div>

      {dialog === 'upload' ? (
        <UploadDialog
          profile={profile}
          tree={tree}
          mode={mode}
          onClose={() => setDialog(null)}
          onUploaded={(name) => afterChange(`Uploaded “${name}”.`)}
        />
      ) : null}
      {dialog === 'export' && single ? (
        <ExportDialog
          profile={profile}
          certificate={single}
          mode={mode}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'move' && selectedRows.length > 0 ? (
        <MoveCertificatesDialog
          profile={profile}
          ids={selectedRows.map((row) => row.id)}
          tree={tree}
          onClose={() => setDialog(null)}
          onMoved={() =>
            afterChange(
              `Moved ${selectedRows.length === 1 ? '1 certificate' : `${selectedRows.length} certificates`}.`,
            )
          }
        />
      ) : null}
      {dialog === 'moveFolder' ? (
        <MoveFolderDialog
          profile={profile}
          tree={tree}
          initial={folder.kind === 'folder' ? folder.node : null}
          onClose={() => setDialog(null)}
          onMoved={() => {
            setFolder({ kind: 'all' })
            afterChange('Moved the folder.')
          }}
        />
      ) : null}
    </section>
  )
}

/** The screen's heading; its section is labelled by the id. */
const HEADING: ScreenHeading = {
  id: 'certificates-title',
  title: 'Certificates',
  subtitle: 'SSL certificates on',
}
