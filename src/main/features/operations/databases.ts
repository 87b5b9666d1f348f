import { randomUUID } from 'node:crypto'
import type { RotationRecord } from '../../../shared/bridge/channels/operations'
import { parseTimestamp } from '../../../shared/time'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import type { OperationsStore } from '../../cache/operations'
import type { DeskContext } from '../context'
import { requireProfile } from '../context'
import { recordedCall, textField } from '../recorded'

/*
 * Database certificate rotation (op 8). Without allowRestart an engine that rereads its
 * certificate on a schedule (ClickHouse) answers `pending` with the time the reread is due; the
 * service offers no operation to ask again, and asking op 8 again would rotate again. So the
 * rotation is kept in SQLite and a timer marks it completed when the service said it would be,
 * which the screen hears as an event and a cache change (after a restart the timer is set again
 * from the table).
 */

type Handlers = Pick<BridgeHandlers, 'databases.rotate' | 'databases.rotations'>

/** setTimeout's ceiling (about 24.8 days); a later due time is re-armed when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1

export function databaseHandlers(context: DeskContext, store: OperationsStore): Handlers {
  const timers = new Map<string, NodeJS.Timeout>()
  let closed = false

  function settle(profileId: string, rotationId: string) {
    timers.delete(`${profileId}:${rotationId}`)
    const rotation = store.completeRotation(profileId, rotationId)
    if (rotation !== null) context.events.emit('databases.rotationSettled', { profileId, rotation })
  }

  function follow(profileId: string, rotation: RotationRecord) {
    if (closed || rotation.status !== 'pending' || rotation.completesAt === null) return
    const key = `${profileId}:${rotation.id}`
    clearTimeout(timers.get(key))
    const wait = rotation.completesAt - Date.now()
    if (wait <= 0) {
      settle(profileId, rotation.id)
      return
    }
    const timer = setTimeout(
      () => (wait > MAX_TIMER_MS ? follow(profileId, rotation) : settle(profileId, rotation.id)),
      Math.min(wait, MAX_TIMER_MS),
    )
    timer.unref()
    timers.set(key, timer)
  }

  for (const { profileId, rotation } of store.pendingRotations()) follow(profileId, rotation)
  context.onClose(() => {
    closed = true
    for (const timer of timers.values()) clearTimeout(timer)
    timers.clear()
  })

  return {
    async 'databases.rotate'({ profileId, databaseId, allowRestart }) {
      const requestedAt = Date.now()
      const answer = await recordedCall(context, profileId, 'rotateDatabaseCertificate', {
        input: { params: { id: databaseId }, body: { allowRestart } },
        target: databaseId,
        describe: (rotated) => describeRotation(rotated.data),
      })
      const rotation = toRotationRecord(databaseId, allowRestart, requestedAt, answer.data)
      store.putRotation(profileId, rotation)
      follow(profileId, rotation)
      return rotation
    },

    async 'databases.rotations'({ profileId, limit }) {
      requireProfile(context, profileId)
      return store.listRotations(profileId, limit)
    },
  }
}

export function toRotationRecord(
  databaseId: string,
  allowRestart: boolean,
  requestedAt: number,
  data: Record<string, unknown>,
): RotationRecord {
  // ISO 8601 or epoch s/ms: the app's one timestamp reader.
  const due = parseTimestamp(data['completesAt'])
  const pending = textField(data, 'status') === 'pending' && due !== null
  return {
    id: textField(data, 'id') ?? randomUUID(),
    databaseId,
    requestedAt,
    allowRestart,
    status: pending ? 'pending' : 'completed',
    completesAt: pending ? due : null,
    answer: data,
  }
}

/** The new certificate's serial number, where the answer carries one. */
export function serialOf(data: unknown): string | null {
  const certificate =
    typeof data === 'object' && data !== null
      ? (data as Record<string, unknown>)['certificate']
      : undefined
  return textField(certificate, 'serialNumber') ?? textField(data, 'serialNumber')
}

const MODE_WORDS: Record<string, string> = {
  reloaded_in_place: 'reloaded in place',
  restarted: 'engine restarted',
  scheduled_reread: 'the engine rereads it on its schedule',
}

function describeRotation(data: Record<string, unknown>): string {
  const serial = serialOf(data)
  const mode = textField(data, 'mode')
  const status = textField(data, 'status')
  const parts = [
    serial === null ? 'New certificate' : `New serial ${serial}`,
    mode === null ? null : (MODE_WORDS[mode] ?? mode),
    status === 'pending' ? `pending until ${textField(data, 'completesAt') ?? 'later'}` : null,
  ]
  return parts.filter((part) => part !== null).join('; ')
}
