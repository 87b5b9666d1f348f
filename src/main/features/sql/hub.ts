import { createSqlStore, type SqlStore } from '../../cache/sql'
import { createSqlResults, type SqlResults } from '../../workers/sql-worker-client'
import type { DeskContext } from '../context'
import { createConformingStrings, type ConformingStrings } from './conforming-strings'
import { createSender, type Sender } from './send'
import { createServiceBehaviour, type ServiceBehaviour } from './services'

/*
 * What the SQL console's handlers share, made once per desk and handed to each handler once:
 * the desk's context, the SQL cache (tabs, history, schemas), the SQL worker that keeps results,
 * the runs in flight (for Cancel), what each service was seen to do, and the sender.
 */

export interface SqlHubState {
  context: DeskContext
  store: SqlStore
  /** The SQL worker, which parses and keeps the results; started on first use, ended with the desk. */
  results(): SqlResults
  /** Runs in flight by run id, so `sql.cancel` can abort one. */
  runs: Map<string, AbortController>
  /** Results whose answer is still being parsed after their first rows went out. */
  pending: Map<string, Promise<void>>
  conformingStrings: ConformingStrings
  services: ServiceBehaviour
}

export interface SqlHub extends SqlHubState {
  sender: Sender
}

export function createSqlHub(context: DeskContext): SqlHub {
  let worker: SqlResults | null = null
  const runs = new Map<string, AbortController>()
  context.onClose(() => {
    for (const controller of runs.values()) controller.abort()
  })
  const state: SqlHubState = {
    context,
    store: createSqlStore(context.cache),
    results() {
      if (worker === null) {
        const started = createSqlResults()
        context.onClose(() => started.close())
        worker = started
      }
      return worker
    },
    runs,
    pending: new Map(),
    conformingStrings: createConformingStrings(context),
    services: createServiceBehaviour(),
  }
  return { ...state, sender: createSender(state) }
}

/** A result still being read: its windows wait for it. */
export async function settled(hub: Pick<SqlHub, 'pending'>, resultId: string): Promise<void> {
  await hub.pending.get(resultId)
}
