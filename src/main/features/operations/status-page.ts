import { APP_ERROR_CODES } from '../../../shared/bridge'
import type { BridgeError } from '../../../shared/bridge'
import { incidentSchema, statusPageSchema } from '../../../shared/bridge/channels/operations'
import type {
  Incident,
  StatusPage,
  StatusPageState,
} from '../../../shared/bridge/channels/operations'
import { ServiceError } from '../../api'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import type { OperationsStore } from '../../cache/operations'
import type { DeskContext } from '../context'
import { bridgeErrorOf, isConnectivityError, requireProfile, withProfileClient } from '../context'
import { recordedCall, textField } from './recorded'

/*
 * The status page (op 21) and its incidents (op 18). Op 21's answer is split in two for the
 * cache: its incidents go to the generic cached list `incidents` (one row each), the page itself
 * (title, overall state, components) to a snapshot. `cached` answers at once from there, also
 * offline; `refresh` asks the service. The preview's shape is not in the spec: the sandbox's
 * `openIncidents` and `recentlyResolved` are read, and so is a plain `incidents` list.
 */

type Handlers = Pick<
  BridgeHandlers,
  'statusPage.cached' | 'statusPage.refresh' | 'statusPage.resolveIncident'
>

const INCIDENT_LIST_KEYS = ['openIncidents', 'recentlyResolved', 'incidents'] as const

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
      const answer = await recordedCall(
        context,
        profileId,
        'resolveIncident',
        { params: { id: incidentId } },
        incidentId,
        (resolved) => {
          const title = textField(resolved.data, 'title') ?? textField(known, 'title')
          const status = textField(resolved.data, 'status') ?? 'resolved'
          return title === null ? `Incident ${status}` : `"${title}" ${status}`
        },
      )
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
  for (const key of INCIDENT_LIST_KEYS) {
    const list = record[key]
    if (!Array.isArray(list)) continue
    for (const item of list) {
      const parsed = incidentSchema.safeParse(item)
      if (parsed.success && !seen.has(parsed.data.id)) {
        seen.add(parsed.data.id)
        incidents.push(parsed.data)
      }
    }
  }
  const rest = Object.fromEntries(
    Object.entries(record).filter(
      ([key]) => !(INCIDENT_LIST_KEYS as readonly string[]).includes(key),
    ),
  )
  const page = statusPageSchema.safeParse(rest)
  if (!page.success) {
    throw new ServiceError(
      APP_ERROR_CODES.BAD_RESPONSE,
      'The status page preview does not have the expected shape',
      {
        details: page.error.issues.map((issue) => ({
          path: issue.path.map(String),
          message: issue.message,
        })),
      },
    )
  }
  return { page: page.data, incidents }
}
