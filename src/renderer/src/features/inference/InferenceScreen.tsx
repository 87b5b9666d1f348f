import { useDeferredValue, useEffect, useMemo, useState } from 'react'
import { toEpochMs } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { isAuthError } from '../../lib/errors'
import { displayValue, extraKeys } from '../../lib/extra-fields'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { RelativeTime } from '../../ui/RelativeTime'
import type { Column } from '../../ui/Table'
import { VirtualTable } from '../../ui/VirtualTable'
import { filterModelsById } from './filter'
import { useInferenceStore } from './store'

type Model = ReturnType<typeof useInferenceStore.getState>['models'][number]

function buildColumns(models: readonly Model[]): Column<Model>[] {
  // The catalog's model objects carry whatever the service sends beside `id`: show it all.
  const others = extraKeys(models, ['id'])
  return [
    { key: 'id', header: 'Model ID', className: 'col-mono', render: (m) => m.id },
    ...others.map((key) => ({
      key,
      header: key,
      render: (m: Model) => {
        const value = (m as Record<string, unknown>)[key]
        if (value === undefined) return <span className="muted">—</span>
        // OpenAI-style catalogs put a Unix time in `created`.
        if (key === 'created' && typeof value === 'number') {
          return <RelativeTime at={toEpochMs(value)} withLocal />
        }
        return displayValue(value)
      },
    })),
  ]
}

export function InferenceScreen({ profile }: { profile: Profile }) {
  const { models, loading, loaded, error, load, profileId } = useInferenceStore()
  const [query, setQuery] = useState('')

  useEffect(() => {
    if (profile.signedIn) void load(profile.id)
  }, [load, profile.id, profile.signedIn])

  // Filtering 150,000 ids per key press is a few ms; deferred, typing never waits for it.
  const deferredQuery = useDeferredValue(query)
  const mine = profileId === profile.id
  const shown = useMemo(
    () => (mine ? filterModelsById(models, deferredQuery) : []),
    [mine, models, deferredQuery],
  )
  const columns = useMemo(() => buildColumns(shown), [shown])
  const total = mine ? models.length : 0

  return (
    <section className="screen" aria-labelledby="inference-title">
      <header className="screen-header">
        <div>
          <h1 id="inference-title">Inference models</h1>
          <p className="screen-subtitle">
            Models the signed-in user can call on <strong>{profile.name}</strong>
          </p>
        </div>
        <div className="screen-actions">
          <input
            type="search"
            className="input search"
            placeholder="Filter by model ID"
            aria-label="Search models by ID"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
          <Button onClick={() => void load(profile.id)} busy={loading} disabled={!profile.signedIn}>
            Refresh
          </Button>
        </div>
      </header>

      {!profile.signedIn ? (
        <div className="banner banner-warning" role="status">
          <div className="banner-text">
            <div className="banner-title">Signed out of {profile.name}</div>
            <div className="banner-message">Sign in to read the model catalog.</div>
          </div>
        </div>
      ) : null}

      {error && !isAuthError(error) ? (
        <ErrorBanner
          error={error}
          context="Could not load the model catalog"
          action={<Button onClick={() => void load(profile.id)}>Retry</Button>}
        />
      ) : null}

      {profile.signedIn && !loaded ? (
        <p className="loading" role="status">
          Loading models…
        </p>
      ) : (
        <>
          <p className="table-summary" aria-live="polite">
            {deferredQuery.trim()
              ? `${shown.length.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} models match`
              : `${total.toLocaleString('en-US')} models`}
          </p>
          <VirtualTable
            label="Inference models"
            columns={columns}
            rows={shown}
            rowKey={(m) => m.id}
            empty={query.trim() ? `No model ID contains “${query.trim()}”.` : 'No models.'}
          />
        </>
      )}
    </section>
  )
}
