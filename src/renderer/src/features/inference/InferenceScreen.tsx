import { useDeferredValue, useEffect, useMemo, useState } from 'react'
import type { InferenceModel } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { isAuthError, isBrowserSessionOnly, isConnectivityError } from '../../lib/errors'
import { displayValue } from '../../lib/extra-fields'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { FilterInput } from '../../ui/FilterInput'
import { RelativeTime } from '../../ui/RelativeTime'
import { ScreenHeader, type ScreenHeading } from '../../ui/ScreenHeader'
import { epochMsOf } from '../../lib/time'
import { VirtualTable, type RowSource, type SortableColumn } from '../../ui/VirtualTable'
import { useInferenceStore } from './store'

function buildColumns(keys: readonly string[]): SortableColumn<InferenceModel>[] {
  // The catalog's model objects carry whatever the service sends beside `id`: show it all.
  return [
    {
      key: 'id',
      header: 'Model ID',
      className: 'col-mono',
      sortField: 'id',
      render: (m) => m.id,
    },
    ...keys.map((key) => ({
      key,
      header: key,
      sortField: key,
      render: (m: InferenceModel) => {
        const value = (m as Record<string, unknown>)[key]
        if (value === undefined) return <span className="muted">—</span>
        // OpenAI-style catalogs put a Unix time in `created`.
        if (key === 'created' && typeof value === 'number') {
          return <RelativeTime at={epochMsOf(value)} withLocal />
        }
        return displayValue(value)
      },
    })),
  ]
}

const NO_MODELS: RowSource<InferenceModel> = {
  key: '',
  count: 0,
  firstRows: [],
  load: async () => [],
}

export function InferenceScreen({ profile }: { profile: Profile }) {
  const state = useInferenceStore()
  const { load, setQuery, profileId, listKey, matched, firstRows, loadRows, keys } = state
  const [query, setQueryText] = useState(state.query)

  useEffect(() => {
    if (profile.signedIn) void load(profile.id)
  }, [load, profile.id, profile.signedIn])

  // The catalog is filtered in main; typing never waits for it.
  const deferredQuery = useDeferredValue(query)
  const mine = profileId === profile.id
  useEffect(() => {
    if (mine) void setQuery(deferredQuery)
  }, [mine, deferredQuery, setQuery])

  const shownView = JSON.stringify([state.query, state.sort])
  const source = useMemo<RowSource<InferenceModel>>(
    () =>
      mine
        ? { key: listKey, count: matched, firstRows, load: loadRows, view: shownView }
        : NO_MODELS,
    [mine, listKey, matched, firstRows, loadRows, shownView],
  )
  const columns = useMemo(() => buildColumns(keys), [keys])
  const total = mine ? state.total : 0
  const shownQuery = mine ? state.query.trim() : ''
  const error = state.error

  return (
    <section className="screen" aria-labelledby={HEADING.id}>
      <ScreenHeader heading={HEADING} profileName={profile.name}>
        <FilterInput
          type="search"
          className="search"
          label="Search models by ID"
          placeholder="Filter by model ID"
          value={query}
          onChange={setQueryText}
        />
        <Button
          onClick={() => void load(profile.id)}
          busy={state.loading}
          disabled={!profile.signedIn}
        >
          Refresh
        </Button>
      </ScreenHeader>

      {!profile.signedIn ? (
        <div className="banner banner-warning" role="status">
          <div className="banner-text">
            <div className="banner-title">Signed out of {profile.name}</div>
            <div className="banner-message">Sign in to read the model catalog.</div>
          </div>
        </div>
      ) : null}

      {/* A service that shows its catalog to browser sessions only: a fact, not an error. */}
      {profile.signedIn && isBrowserSessionOnly(error) ? (
        <div className="banner banner-info" role="status" aria-label="Models not listed">
          <div className="banner-text">
            <div className="banner-title">The catalog is kept for the web console</div>
            <div className="banner-message">{error?.message}</div>
          </div>
        </div>
      ) : null}

      {/* Offline with a catalog read before: it is shown under the app's offline banner. */}
      {error &&
      !isAuthError(error) &&
      !isBrowserSessionOnly(error) &&
      !(isConnectivityError(error) && state.fetchedAt !== null) ? (
        <ErrorBanner
          error={error}
          context="Could not load the model catalog"
          onRetry={() => load(profile.id)}
        />
      ) : null}

      {profile.signedIn && !state.loaded ? (
        <p className="loading" role="status">
          Loading models…
        </p>
      ) : (
        <>
          <p className="table-summary" aria-live="polite">
            {shownQuery
              ? `${matched.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} models match`
              : `${total.toLocaleString('en-US')} models`}
          </p>
          <VirtualTable
            label="Inference models"
            columns={columns}
            source={source}
            sort={state.sort}
            onSort={(sort) => void state.setSort(sort)}
            rowKey={(m) => m.id}
            empty={shownQuery ? `No model ID contains “${shownQuery}”.` : 'No models.'}
          />
        </>
      )}
    </section>
  )
}

/** The screen's heading; its section is labelled by the id. */
const HEADING: ScreenHeading = {
  id: 'inference-title',
  title: 'Inference models',
  subtitle: 'Models the signed-in user can call on',
}
