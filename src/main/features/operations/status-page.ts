import { APP_ERROR_CODES } from '../../../shared/bridge'
import type { BridgeError } from '../../../shared/bridge'
import { incidentSchema, statusPageSchema } from '../../../shared/bridge/channels/operations'
import type {
  Incident,
  StatusPage,
  StatusPageState,
} from '../../../shared/bridge/channels/operations'
import { INCIDENT_LIST_KEYS, readIncident } from '../../../shared/status-page'
import { ServiceError } from '../../api'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import type { OperationsStore } from '../../cache/operations'
import type { DeskContext } from '../context'
import { isConnectivityError } from '../../../shared/bridge/connectivity'
import { bridgeErrorOf, requireProfile, withProfileClient } from '../context'
import { recordedCall } from '../recorded'

/*
 * The status page (op 21) and its incidents (op 18). Op 21's answer is split in two for the
 * cache: its incidents go to the generic cached list `incidents` (one row each), the page itself
 * (title, overall state, components) to a snapshot. `cached` answers at once from there, also
 * offline; `refresh` asks the service. The preview's shape is not in the spec: incidents are
 * read from any of the lists src/shared/status-page.ts knows (the sandbox's `openIncidents`
 * and `recentlyResolved`, a plain `incidents` list…), everything else is the page, kept whole.
 */

type Handlers = Pick<
  BridgeHandlers,
  'statusPage.cached' | 'statusPage.refresh' | 'statusPage.resolveIncident'
>

export function statusPageHandlers(context: DeskContext, store: OperationsStore): Handlers {
  function cachedState(profileId: string, error: BridgeError | null): StatusPageState {
    const list = context.cache.getList(profileId, 'incidents')
    const snapshot = store.getSnapshot(profileId, 'status-page')
    const page = snapshot === null ? null : statusPageSchema.safeParse(snapshot.value)
    return {
      page: page?.success ? page.data : null,
      items: (list?.items ?? []).flatMap((item) => {
        const parsed = incidentSchema.safeParse(item)
        return parsed.success ? [parsed.data] : []
      }),
      fetchedAt: list?.fetchedAt ?? null,
      offline: error !== null || context.connectivity.offline(profileId),
      error: error ?? context.connectivity.lastError(profileId),
    }
  }

  async function refresh(profileId: string): Promise<StatusPageState> {
    try {
      const answer = await withProfileClient(context, profileId, (client) =>
        client.call('getStatusPagePreview'),
      )
      const { page, incidents } = readPreview(answer.data)
      const fetchedAt = Date.now()
      store.putSnapshot(profileId, 'status-page', page, fetchedAt)
      context.cache.putList(profileId, 'incidents', incidents, fetchedAt)
      return { page, items: incidents, fetchedAt, offline: false, error: null }
    } catch (error) {
      if (!isConnectivityError(error)) throw error
      return cachedState(profileId, bridgeErrorOf(context, error))
    }
  }

  return {
    async 'statusPage.cached'({ profileId }) {
      requireProfile(context, profileId)
      return cachedState(profileId, null)
    },

    async 'statusPage.refresh'({ profileId }) {
      return refresh(profileId)
    },

    async 'statusPage.resolveIncident'({ profileId, incidentId }) {
      const known = context.cache.getItem(profileId, 'incidents', incidentId)
      const answer = await recordedCall(context, profileId, 'resolveIncident', {
        input: { params: { id: incidentId } },
        target: incidentId,
        describe: (resolved) => {
          const title = titleOf(resolved.data) ?? titleOf(known)
          const status = statusOf(resolved.data) ?? 'resolved'
          return title === null ? `Incident ${status}` : `"${title}" ${status}`
        },
      })
      // The preview changed with it (the incident left the open list, components recovered).
      const page = await refresh(profileId).catch(() => cachedState(profileId, null))
      return { incident: answer.data, page }
    },
  }
}

/** Splits op 21's `data` into the page and its incidents (open first, then resolved). */
export function readPreview(data: unknown): { page: StatusPage; incidents: Incident[] } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ServiceError(
      APP_ERROR_CODES.BAD_RESPONSE,
      'The status page preview is not an object: the service answered something else',
    )
  }
  const record = data as Record<string, unknown>
  const seen = new Set<string>()
  const incidents: Incident[] = []
  // Entries of an incident list that are not incidents with a string id (op 18 needs one) stay
  // on the page under their list's name, so the screen still shows them.
  const unread: Record<string, unknown[]> = {}
  for (const key of INCIDENT_LIST_KEYS) {
    const list = record[key]
    if (!Array.isArray(list)) continue
    for (const item of list) {
      const parsed = incidentSchema.safeParse(item)
      if (!parsed.success) (unread[key] ??= []).push(item)
      else if (!seen.has(parsed.data.id)) {
        seen.add(parsed.data.id)
        incidents.push(parsed.data)
      }
    }
  }
  const page = {
    ...Object.fromEntries(
      Object.entries(record).filter(
        ([key]) => !(INCIDENT_LIST_KEYS as readonly string[]).includes(key),
      ),
    ),
    ...unread,
  }
  return { page, incidents }
}

/** An incident's title and status by any of their names (the activity line says them). */
function titleOf(item: unknown): string | null {
  return incidentOf(item)?.title ?? null
}

function statusOf(item: unknown): string | null {
  return incidentOf(item)?.status.text ?? null
}

function incidentOf(item: unknown) {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null
  const fields = item as Record<string, unknown>
  return readIncident({ ...fields, id: typeof fields['id'] === 'string' ? fields['id'] : '' })
}
