import { powerMonitor } from 'electron'
import type { PowerSource } from '../refresh/scheduler'

/*
 * The machine's sleep and wake for background refresh (src/main/refresh/scheduler.ts), from
 * Electron's powerMonitor. Used only after the app is ready (the desk opens after whenReady).
 */
export function createPowerSource(): PowerSource {
  return {
    onSuspend(listener) {
      powerMonitor.on('suspend', listener)
      return () => {
        powerMonitor.off('suspend', listener)
      }
    },
    onResume(listener) {
      powerMonitor.on('resume', listener)
      return () => {
        powerMonitor.off('resume', listener)
      }
    },
  }
}
