import { create } from 'zustand'
import type { BridgeError, Settings } from '../../../shared/bridge'
import { asBridgeError, bridge } from '../bridge'

/*
 * The app's settings as main holds them (settings.json): loaded once at start, kept current by
 * the `settings.changed` event, patched through `update` (main validates; a bad downloads
 * folder comes back as a VALIDATION_ERROR on `downloadsDir`).
 */

interface SettingsState {
  settings: Settings | null
  error: BridgeError | null
  load(): Promise<void>
  /** Throws a BridgeCallError when main refuses the patch. */
  update(patch: Partial<Settings>): Promise<Settings>
  /** From the `settings.changed` event. */
  apply(settings: Settings): void
}

export const useSettingsStore = create<SettingsState>()((set) => ({
  settings: null,
  error: null,
  async load() {
    try {
      set({ settings: await bridge.call('settings.get', {}), error: null })
    } catch (error) {
      set({ error: asBridgeError(error) })
    }
  },
  async update(patch) {
    const settings = await bridge.call('settings.update', patch)
    set({ settings, error: null })
    return settings
  },
  apply(settings) {
    set({ settings })
  },
}))
