import type { EventPayload } from '../../../shared/bridge'
import { useAppStore } from './store'

/*
 * A read waiting out the service's rate limit (main's `service.waiting`): said in the app's
 * notices while the wait lasts, then taken away, since the read goes on by itself. A later wait
 * of the same profile replaces the notice (same id).
 */

const timers = new Map<string, ReturnType<typeof setTimeout>>()

export function showRateLimitWait(wait: EventPayload<'service.waiting'>): void {
  const app = useAppStore.getState()
  const id = `service-waiting:${wait.profileId}`
  const profile = app.profiles.find((candidate) => candidate.id === wait.profileId)
  const seconds = Math.max(1, Math.ceil(wait.retryInMs / 1000))
  app.addNotice({
    id,
    level: 'info',
    message:
      `Waiting for the service's rate limit${profile ? ` (${profile.name})` : ''}: ` +
      `retrying in ${seconds} s (wait ${wait.attempt} of at most ${wait.maxAttempts}).`,
  })
  const previous = timers.get(id)
  if (previous !== undefined) clearTimeout(previous)
  timers.set(
    id,
    setTimeout(() => {
      timers.delete(id)
      useAppStore.getState().dismissNotice(id)
    }, wait.retryInMs + 500),
  )
}
