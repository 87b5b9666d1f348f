import { lazy, Suspense } from 'react'
import type { Profile } from '../../../../shared/bridge'

/*
 * The SQL console's entry: CodeMirror, the grid and the rest load on the first visit to this
 * screen, in their own chunk, so the app starts without them.
 */
const SqlConsole = lazy(() => import('./SqlConsole'))

export function SqlScreen({ profile }: { profile: Profile }) {
  return (
    <Suspense
      fallback={
        <section className="screen" aria-labelledby="sql-title">
          <h1 id="sql-title">SQL console</h1>
          <p className="muted">Loading the editor…</p>
        </section>
      }
    >
      <SqlConsole profile={profile} />
    </Suspense>
  )
}
