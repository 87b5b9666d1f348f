import type { EventPayload } from '../../../../shared/bridge'
import { bridge } from '../../bridge'

/** Subscribes to the cache's mutation events (history written, schema read). */
export function onCacheChange(
  handler: (change: EventPayload<'cache.changed'>) => void,
): () => void {
  return bridge.on('cache.changed', handler)
}
