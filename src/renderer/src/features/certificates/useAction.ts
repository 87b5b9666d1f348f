import { useCallback, useState } from 'react'
import type { BridgeError } from '../../../../shared/bridge'
import { asBridgeError } from '../../bridge'

/*
 * One bridge action of a dialog: busy while it runs, its error kept for the fields and the
 * banner, cleared when the user changes something.
 */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeError | null>(null)

  /** Runs `work`; its value, or undefined when it failed (the error is then in `error`). */
  const run = useCallback(async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true)
    setError(null)
    try {
      return await work()
    } catch (caught) {
      setError(asBridgeError(caught))
      return undefined
    } finally {
      setBusy(false)
    }
  }, [])

  const clearError = useCallback(() => setError(null), [])
  return { busy, error, run, clearError }
}
