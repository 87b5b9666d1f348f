import { useEffect, useMemo, useState } from 'react'
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
import { expiryLabel, expiryOf } from '../certificates/model'
import { formatBytes } from '../transfers/format'
import { formatLocal } from '../../lib/time'
import { openForProfile, useOverviewStore } from './store'
import './overview.css'

/*
 * Expiring everywhere (issue 21): every certificate of every profile's cache that ends within
 * N days (a setting, 30 by default), soonest first as main sorted them, with its profile's
 * colour and name; virtualised, so 100,000 rows paint as fast as 100. Exports to CSV and to an
 * iCalendar file are written by main.
 */

const HEADING: ScreenHeading = {
  id: 'expiring-title',
  title: 'All expiring certificates',
  subtitle: "Every profile's saved certificates that expire soon, soonest first",
}

interface Saved {
  format: ExpiringExportFormat
  path: string | null
  bytes: number
  count: number
}

export function ExpiringScreen(_props: { profile: Profile | null }) {
  const profiles = useAppStore((s) => s.profiles)
  const mode = useAppStore((s) => s.mode)
  const { expiring, expiringError, loadExpiring, follow } = useOverviewStore()
  const updateSettings = useSettingsStore((s) => s.update)
  const now = useNow()
  const [daysText, setDaysText] = useState<string | null>(null)
  const [daysError, setDaysError] = useState<string | null>(null)
  const [exporting, setExporting] = useState<ExpiringExportFormat | null>(null)
  const [saved, setSaved] = useState<Saved | null>(null)
  const [exportError, setExportError] = useState<BridgeError | null>(null)

  useEffect(() => {
    void loadExpiring()
    return follow('expiring')
  }, [loadExpiring, follow])

  const byId = useMemo(() => new Map(profiles.map((profile) => [profile.id, profile])), [profiles])
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

  async function applyDays(text: string) {
    const days = Number(text)
    if (!Number.isInteger(days) || days < 1 || days > 3650) {
      setDaysError('Enter whole days from 1 to 3650')
      return
    }
    setDaysError(null)
    try {
      await updateSettings({ expiringDays: days })
      setDaysText(null)
      await loadExpiring(days)
    } catch (error) {
      setDaysError(asBridgeError(error).message)
    }
  }

  async function exportAs(format: ExpiringExportFormat) {
    setExporting(format)
    setExportError(null)
    try {
      const answer = await bridge.call('overview.exportExpiring', {
        format,
        ...(expiring ? { days: expiring.days } : {}),
      })
      setSaved({ format, path: answer.path, bytes: answer.bytes, count: answer.count })
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
        return (
          <span className="expiring-profile">
            {profile ? <ColorDot color={profile.color} /> : null}
            {profile?.name ?? 'Removed profile'}
          </span>
        )
      },
    },
    { key: 'common', header: 'Common name', render: ({ row }) => row.commonName ?? '—' },
    { key: 'status', header: 'Status', render: ({ row }) => row.status ?? '—' },
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
      <form
        className="expiring-controls"
        onSubmit={(event) => {
          event.preventDefault()
          if (daysText !== null) void applyDays(daysText)
        }}
      >
        <label>
          Expiring within{' '}
          <input
            className="input expiring-days"
            type="number"
            min={1}
            max={3650}
            aria-label="Days ahead"
            aria-invalid={daysError !== null}
            value={daysText ?? (days === undefined ? '' : String(days))}
            onChange={(event) => setDaysText(event.target.value)}
            onBlur={() => {
              if (daysText !== null) void applyDays(daysText)
            }}
          />{' '}
          days
        </label>
        {daysError ? (
          <span className="field-error" role="alert">
            {daysError}
          </span>
        ) : null}
        {expiring ? (
          <span role="status" aria-label="Expiring count">
            <strong>{expiring.total}</strong>{' '}
            {expiring.total === 1 ? 'certificate' : 'certificates'} in {expiring.perProfile.length}{' '}
            of {profiles.length} profiles
          </span>
        ) : null}
      </form>
      {saved ? (
        <div className="banner banner-success" role="status" aria-label="Export saved">
          <div className="banner-text">
            <div className="banner-message">
              {saved.path === null
                ? 'Export cancelled.'
                : `Saved ${saved.count} ${saved.count === 1 ? 'certificate' : 'certificates'} to ${saved.path} (${formatBytes(saved.bytes)}).`}
              {saved.path !== null && mode === 'web'
                ? ' Copy the path to open it from your file manager.'
                : null}
            </div>
          </div>
          <div className="banner-action">
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
          empty={`No saved certificate expires within ${source.view} days.`}
        />
      )}
    </section>
  )
}
