import { useEffect, useMemo, useRef, useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import type {
  ExpiringCertificate,
  ExpiringExportFormat,
} from '../../../../shared/bridge/channels/overview'
import { useSettingsStore } from '../../app/settings-store'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import type { BridgeError } from '../../../../shared/bridge'
import { ColorDot } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { ScreenHeader, type ScreenHeading } from '../../ui/ScreenHeader'
import type { Column } from '../../ui/Table'
import { VirtualTable, type RowSource } from '../../ui/VirtualTable'
import { useNow } from '../../ui/useNow'
import { StatusBadge } from '../certificates/CertificateList'
import { expiryLabel, expiryOf } from '../certificates/model'
import { formatBytes } from '../transfers/format'
import { SavedFileActions } from '../transfers/TransferParts'
import { formatLocal, plural } from '../../lib/time'
import {
  DAYS_MAX,
  DAYS_MIN,
  DAYS_RANGE_HINT,
  expiringCountText,
  expiringEmptyText,
  readDays,
} from './expiring-text'
import { offlineRowMark } from './offline-rows'
import { openForProfile, useOverviewStore } from './store'
// .field-error and .input[aria-invalid]: this lazily loaded screen may paint before any Field.
import '../../ui/forms.css'
import './overview.css'
import './profile-state.css'

/*
 * Expiring everywhere: every certificate of every profile's cache that ends within
 * N days (a setting, 30 by default), soonest first as main sorted them, with its profile's
 * colour and name; virtualised, so 100,000 rows paint as fast as 100. Exports to CSV and to an
 * iCalendar file are written by main.
 */

const HEADING: ScreenHeading = {
  id: 'expiring-title',
  title: 'All expiring certificates',
  subtitle: "Every profile's saved certificates that expire soon, soonest first",
}

/**
 * How long the N-days box waits after a change before reading the list again: each read goes
 * through every profile's cache in main, and holding an arrow key or typing "365" makes a
 * change per step or digit; only the value the operator stops at is read.
 */
const DAYS_SETTLE_MS = 300

interface Saved {
  format: ExpiringExportFormat
  path: string | null
  bytes: number
  count: number
  sha256: string | null
  transferId: string | null
}

export function ExpiringScreen(_props: { profile: Profile | null }) {
  const profiles = useAppStore((s) => s.profiles)
  const { expiring, expiringError, loadExpiring, follow } = useOverviewStore()
  const updateSettings = useSettingsStore((s) => s.update)
  const now = useNow()
  // What the operator typed, null until they type (the box then shows the list's window).
  const [daysText, setDaysText] = useState<string | null>(null)
  // A failure to save the setting; the box's own value being out of range is `reading`.
  const [saveError, setSaveError] = useState<string | null>(null)
  const pendingDays = useRef<{ days: number; timer: ReturnType<typeof setTimeout> } | null>(null)
  const applying = useRef(0)
  // Settings writes one after another, so the setting saved is the last value applied even
  // when an earlier write answers later.
  const saving = useRef<Promise<unknown>>(Promise.resolve())
  const [exporting, setExporting] = useState<ExpiringExportFormat | null>(null)
  const [saved, setSaved] = useState<Saved | null>(null)
  const [exportError, setExportError] = useState<BridgeError | null>(null)

  useEffect(() => {
    void loadExpiring()
    return follow('expiring')
  }, [loadExpiring, follow])

  const byId = useMemo(() => new Map(profiles.map((profile) => [profile.id, profile])), [profiles])
  // Rows of a profile whose service was unreachable at its last call are marked with their age.
  const connectivity = useAppStore((s) => s.connectivity)
  const fetchedAtOf = useMemo(
    () => new Map(expiring?.perProfile.map((entry) => [entry.profileId, entry.fetchedAt])),
    [expiring],
  )
  // The first rows come with the counts; the others are read from main as they scroll into
  // view, in the order and window (`until`) of that answer.
  const source = useMemo((): RowSource<ExpiringCertificate> | null => {
    if (expiring === null) return null
    const { until, total, items } = expiring
    return {
      key: `${until}:${total}`,
      view: String(expiring.days),
      count: total,
      firstRows: items,
      load: async (offset, limit) =>
        (await bridge.call('overview.expiringWindow', { until, offset, limit })).items,
    }
  }, [expiring])

  const reading = daysText === null ? null : readDays(daysText)
  const daysError = reading !== null && !reading.ok ? reading.message : saveError

  /** Reads the list for `days` and saves it as the setting. */
  function applyDays(days: number) {
    const mine = ++applying.current
    // The store keeps the last read's answer only, so the list matches the last value applied.
    void loadExpiring(days)
    const saved = saving.current.then(() => updateSettings({ expiringDays: days }))
    saving.current = saved.catch(() => undefined)
    saved.then(
      () => {
        if (mine === applying.current) setSaveError(null)
      },
      (error: unknown) => {
        if (mine === applying.current) setSaveError(asBridgeError(error).message)
      },
    )
  }

  /**
   * A change of the box: a valid value is read once the box settles; an invalid one is only
   * marked (the list read last stays on screen, and main would refuse it anyway).
   */
  function changeDays(text: string) {
    setDaysText(text)
    cancelPendingDays()
    const next = readDays(text)
    if (!next.ok) return
    const timer = setTimeout(() => {
      pendingDays.current = null
      applyDays(next.days)
    }, DAYS_SETTLE_MS)
    pendingDays.current = { days: next.days, timer }
  }

  function cancelPendingDays() {
    if (pendingDays.current !== null) clearTimeout(pendingDays.current.timer)
    pendingDays.current = null
  }

  /** Enter, leaving the box or leaving the screen: no need to wait for it to settle. */
  function applyPendingDays() {
    const pending = pendingDays.current
    if (pending === null) return
    cancelPendingDays()
    applyDays(pending.days)
  }
  const applyPendingOnLeave = useRef(applyPendingDays)
  applyPendingOnLeave.current = applyPendingDays
  useEffect(() => () => applyPendingOnLeave.current(), [])

  async function exportAs(format: ExpiringExportFormat) {
    setExporting(format)
    setExportError(null)
    try {
      const answer = await bridge.call('overview.exportExpiring', {
        format,
        ...(expiring ? { days: expiring.days } : {}),
      })
      setSaved({ format, ...answer })
    } catch (error) {
      setExportError(asBridgeError(error))
    } finally {
      setExporting(null)
    }
  }

  const columns: Column<ExpiringCertificate>[] = [
    {
      key: 'expires',
      header: 'Expires',
      className: 'col-nowrap',
      render: ({ row }) => {
        const expiry = expiryOf(row, now)
        const end = row.notAfter === null ? Number.NaN : Date.parse(row.notAfter)
        return (
          <span
            className={
              expiry.kind === 'expired'
                ? 'expiring-expired'
                : expiry.kind === 'soon'
                  ? 'expiring-soon'
                  : undefined
            }
            title={Number.isNaN(end) ? undefined : formatLocal(end)}
          >
            {expiryLabel(expiry)}
            {Number.isNaN(end) ? null : (
              <span className="muted"> · {new Date(end).toISOString().slice(0, 10)}</span>
            )}
          </span>
        )
      },
    },
    {
      key: 'name',
      header: 'Certificate',
      render: ({ profileId, row }) => (
        <button
          type="button"
          className="overview-profile"
          title="Open it in its profile"
          onClick={() =>
            void openForProfile(profileId, 'certificates', { search: row.name, select: row.id })
          }
        >
          {row.name}
        </button>
      ),
    },
    {
      key: 'profile',
      header: 'Profile',
      render: ({ profileId }) => {
        const profile = byId.get(profileId)
        const stale = offlineRowMark(fetchedAtOf.get(profileId), connectivity[profileId], now)
        return (
          <span className="expiring-profile">
            {profile ? <ColorDot color={profile.color} /> : null}
            {profile?.name ?? 'Removed profile'}
            {stale === null ? null : <span className="expiring-stale">{stale}</span>}
          </span>
        )
      },
    },
    { key: 'common', header: 'Common name', render: ({ row }) => row.commonName ?? '—' },
    {
      key: 'status',
      header: 'Status',
      // The certificates screen's badge: words for the statuses it knows, any other as sent.
      render: ({ row }) => (row.status ? <StatusBadge status={row.status} /> : '—'),
    },
  ]

  const days = expiring?.days
  return (
    <section className="screen expiring-screen" aria-labelledby={HEADING.id}>
      <ScreenHeader heading={HEADING}>
        <Button
          busy={exporting === 'csv'}
          disabled={!expiring}
          onClick={() => void exportAs('csv')}
        >
          Export CSV
        </Button>
        <Button
          busy={exporting === 'ics'}
          disabled={!expiring}
          onClick={() => void exportAs('ics')}
        >
          Export calendar (.ics)
        </Button>
      </ScreenHeader>
      {/* noValidate: the browser's own check of min/max would swallow Enter with a bubble of
          its own; the box says what is wrong itself (aria-invalid and the message). */}
      <form
        className="expiring-controls"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          applyPendingDays()
        }}
      >
        <label>
          Expiring within{' '}
          <input
            className="input expiring-days"
            type="number"
            min={DAYS_MIN}
            max={DAYS_MAX}
            aria-label="Days ahead"
            aria-invalid={daysError !== null}
            aria-describedby={daysError !== null ? 'expiring-days-error' : 'expiring-days-range'}
            value={daysText ?? (days === undefined ? '' : String(days))}
            onChange={(event) => changeDays(event.target.value)}
            onBlur={applyPendingDays}
          />{' '}
          days{' '}
          <span className="muted" id="expiring-days-range">
            ({DAYS_RANGE_HINT})
          </span>
        </label>
        {daysError ? (
          <span className="field-error" id="expiring-days-error" role="alert">
            {daysError}
          </span>
        ) : null}
        {expiring ? (
          <span role="status" aria-label="Expiring count">
            {expiringCountText(expiring.total, expiring.perProfile.length, profiles.length)}
          </span>
        ) : null}
      </form>
      {saved ? (
        <div className="banner banner-success" role="status" aria-label="Export saved">
          <div className="banner-text">
            <div className="banner-message">
              {saved.path === null
                ? 'Export cancelled.'
                : `Saved ${plural(saved.count, 'certificate')} to ${saved.path} (${formatBytes(saved.bytes)}).`}
            </div>
            {saved.sha256 === null ? null : (
              <div className="banner-message mono-small">File SHA-256 {saved.sha256}</div>
            )}
          </div>
          <div className="banner-action">
            {saved.path !== null && saved.transferId !== null ? (
              <SavedFileActions
                transfer={{
                  id: saved.transferId,
                  label: `the Expiring ${saved.format === 'csv' ? 'CSV' : 'calendar'}`,
                }}
                path={saved.path}
              />
            ) : null}
            <Button size="small" onClick={() => setSaved(null)}>
              Dismiss
            </Button>
          </div>
        </div>
      ) : null}
      <ErrorBanner error={exportError} context="Could not export the list" />
      <ErrorBanner
        error={expiringError}
        context="Could not read the list"
        onRetry={() => loadExpiring(days)}
      />
      {source === null ? (
        expiringError === null ? (
          <p className="loading" role="status">
            Reading every profile’s certificates…
          </p>
        ) : null
      ) : (
        <VirtualTable
          label="Expiring certificates"
          columns={columns}
          source={source}
          rowKey={(item) => `${item.profileId}/${item.row.id}`}
          empty={days === undefined ? '' : expiringEmptyText(days)}
        />
      )}
    </section>
  )
}
