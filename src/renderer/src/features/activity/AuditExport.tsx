import { useState } from 'react'
import type { BridgeError, ChannelOutput } from '../../../../shared/bridge'
import { asBridgeError, bridge } from '../../bridge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { formatBytes } from '../transfers/format'
import { plural } from '../../lib/time'
import { exportRequest, filterProblem, type ActivityFilters } from './filters'

/*
 * The audit trail's export: every line the screen's filters let through (not only the 500
 * shown), written by main as CSV or NDJSON; the desktop app asks where with a save dialog, web
 * mode writes to the downloads folder of Settings. Says where it went, its size and SHA-256.
 */

type Exported = ChannelOutput<'activity.export'>

export function AuditExport({ filters }: { filters: ActivityFilters }) {
  const [busy, setBusy] = useState<'csv' | 'ndjson' | null>(null)
  const [saved, setSaved] = useState<Exported | null>(null)
  const [error, setError] = useState<BridgeError | null>(null)
  // A day that is not one or a reversed range (the screen says so): no export until it is fixed.
  const blocked = filterProblem(filters) !== null

  async function run(format: 'csv' | 'ndjson') {
    setBusy(format)
    setError(null)
    setSaved(null)
    try {
      const result = await bridge.call('activity.export', exportRequest(filters, format))
      // A cancelled save dialog: nothing written, nothing to say.
      if (result.path !== null) setSaved(result)
    } catch (caught) {
      setError(asBridgeError(caught))
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="activity-export">
      <div className="activity-export-actions" role="group" aria-label="Export the activity log">
        {(['csv', 'ndjson'] as const).map((format) => (
          <Button
            key={format}
            size="small"
            busy={busy === format}
            disabled={busy !== null || blocked}
            onClick={() => void run(format)}
          >
            Export {format.toUpperCase()}
          </Button>
        ))}
        <span className="muted">
          Every line these filters let through, oldest first, times in UTC
        </span>
      </div>
      {error ? <ErrorBanner error={error} context="The activity log was not exported" /> : null}
      {saved && saved.path !== null ? (
        <div className="banner banner-success" role="status" aria-label="Exported">
          <div className="banner-text">
            <div className="banner-title">
              Exported {plural(saved.rows, 'line')} ({formatBytes(saved.bytes)})
            </div>
            <div className="banner-message">
              <code className="activity-export-path">{saved.path}</code>
            </div>
            <div className="banner-message mono-small activity-export-hash">
              SHA-256 {saved.sha256}
            </div>
          </div>
        </div>
      ) : null}
    </div>
  )
}
