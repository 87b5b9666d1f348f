import { create } from 'zustand'
import type { BridgeError, ChannelOutput } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { isAuthError, isConnectivityError } from '../../lib/errors'

type Model = ChannelOutput<'inference.list'>['models'][number]

interface InferenceState {
  profileId: string | null
  models: Model[]
  loading: boolean
  loaded: boolean
  error: BridgeError | null
  load(profileId: string): Promise<void>
}

let generation = 0

/** The inference catalog (op 6) of the shown profile; not cached, read on every visit. */
export const useInferenceStore = create<InferenceState>()((set, get) => ({
  profileId: null,
  models: [],
  loading: false,
  loaded: false,
  error: null,

  async load(profileId) {
    const mine = ++generation
    if (get().profileId !== profileId) set({ profileId, models: [], loaded: false })
    set({ loading: true, error: null })
    try {
      const { models } = await bridge.call('inference.list', { profileId })
      if (mine !== generation) return
      set({ models, loading: false, loaded: true })
      useAppStore.getState().reportConnectivity(profileId, { offline: false, error: null })
    } catch (error) {
      if (mine !== generation) return
      const bridgeError = asBridgeError(error)
      set({ error: bridgeError, loading: false, loaded: true })
      if (isConnectivityError(bridgeError)) {
        useAppStore.getState().reportConnectivity(profileId, { offline: true, error: bridgeError })
      }
      if (isAuthError(bridgeError)) {
        useAppStore.getState().requestSignIn({ profileId, message: bridgeError.message })
      }
    }
  },
}))
