import { useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { formatLocalFull } from '../../lib/time'
import { Button } from '../../ui/Button'
import { KnownObjectsProfile } from '../../lib/known-objects'
import { MigrationDetails } from './MigrationDetails'
import { MigrationStatus } from './MigrationStatus'
import { ResolveMigrationDialog } from './ResolveMigrationDialog'
import { useMigrationsStore } from './store'
import { migrationStatusLabel } from './words'
import './migrations.css'

/*
 * Migrations (op 13). The service lists no migrations, so the screen is the way in to the
 * resolution dialog (opened for an id from the palette, a deep link or the button), and the
 * record of what was resolved in this window, each answer shown whole.
 */

const NO_RESOLVED: never[] = []

export function MigrationsScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const navigate = useAppStore((s) => s.navigate)
  const resolved = useMigrationsStore((s) => s.resolved[profile.id] ?? NO_RESOLVED)
  const add = useMigrationsStore((s) => s.add)
  // Asked for by the palette (op=resolveMigration), a deep link or a hash with an id.
  const requested = routeParams['op'] === 'resolveMigration' || routeParams['id'] !== undefined
  // The outcome of the last resolution, announced (the dialog that asked has gone).
  const [outcome, setOutcome] = useState<string | null>(null)
  const [dialog, setDialog] = useState<{ id: string } | null>(
    requested ? { id: routeParams['id'] ?? '' } : null,
  )

  // A later palette entry or deep link while the screen is open opens the dialog again
  // (state adjusted while rendering, as React advises, rather than in an effect).
  const [seenParams, setSeenParams] = useState(routeParams)
  if (seenParams !== routeParams) {
    setSeenParams(routeParams)
    if (requested) setDialog({ id: routeParams['id'] ?? '' })
  }

  function close() {
    setDialog(null)
    // The hash no longer asks for the dialog, so a reload does not bring it back.
    if (Object.keys(routeParams).length > 0) navigate('migrations')
  }

  return (
    <section className="screen" aria-labelledby="migrations-title">
      <header className="screen-header">
        <div>
          <h1 id="migrations-title">Migrations</h1>
          <p className="screen-subtitle">
            Resolve a container or deployment migration that needs attention
          </p>
        </div>
        <div className="screen-actions">
          <Button variant="primary" onClick={() => setDialog({ id: '' })}>
            Resolve a migration…
          </Button>
        </div>
      </header>

      <div className="card migrations-intro">
        <p>
          A migration stops as <strong>needs attention</strong> when the service cannot tell which
          node holds the truth (both accepted writes, volumes differ, the target failed after
          cut-over). Reconcile both nodes yourself, then resolve it here, naming the authoritative
          side. Desktop links <code>infradesk://migrations/&lt;id&gt;/resolve</code> open the same
          dialog.
        </p>
      </div>

      {outcome ? (
        <div className="banner banner-success" role="status">
          <div className="banner-text">{outcome}</div>
        </div>
      ) : null}

      <section className="screen" aria-labelledby="resolved-title">
        <h2 id="resolved-title">Resolved in this window</h2>
        {resolved.length === 0 ? (
          <p className="muted">Nothing resolved yet on {profile.name}.</p>
        ) : (
          resolved.map(({ migration, resolvedAt }) => (
            <article
              key={migration.id}
              className="card migration-result"
              aria-label={`Resolved migration ${migration.id}`}
            >
              <header className="migration-result-header">
                <h3>
                  {migration.resourceName} <span className="muted">({migration.resourceType})</span>
                </h3>
                <MigrationStatus status={migration.status} />
                <span className="muted">resolved {formatLocalFull(resolvedAt)}</span>
              </header>
              <KnownObjectsProfile.Provider value={profile.id}>
                <MigrationDetails migration={migration} />
              </KnownObjectsProfile.Provider>
            </article>
          ))
        )}
      </section>

      {dialog ? (
        <ResolveMigrationDialog
          key={dialog.id}
          profile={profile}
          initialId={dialog.id}
          onClose={close}
          onResolved={(migration) => {
            add(profile.id, migration)
            setOutcome(
              `Migration ${migration.id} (${migration.resourceName}) resolved: ${migrationStatusLabel(migration.status).toLowerCase()}.`,
            )
            close()
          }}
        />
      ) : null}
    </section>
  )
}
