import type { WebContents } from 'electron'
import { BRIDGE_GLOBAL } from '../../shared/bridge/ipc-names'

/*
 * `infradesk-desktop --smoke` (docs/RELEASE.md): the installed app starts on a throwaway data
 * folder, opens its window, calls app.info through the preload exactly as the page does, prints
 * one line and quits through the normal path (the desk closed in bounded time). Exit 0 is the
 * whole chain working on this machine: the binary, the asar, the fuses, the preload, the IPC
 * transport and the sender check, the core's native modules.
 */

/** Printed on stdout when the check passes, followed by a JSON object. */
export const SMOKE_OK = 'SMOKE_OK'
/** Printed on stderr when it fails, followed by the reason. */
export const SMOKE_FAILED = 'SMOKE_FAILED'
/** The check gives up after this long (a window that never loads must not hang a script). */
export const SMOKE_LIMIT_MS = 60_000

export interface SmokeFacts {
  mode: string
  version: string
}

/** Waits for the page, then asks app.info through the page's own bridge. */
export async function smokeCheck(contents: WebContents): Promise<SmokeFacts> {
  if (contents.isLoading()) {
    await new Promise<void>((resolve, reject) => {
      contents.once('did-finish-load', () => resolve())
      contents.once('did-fail-load', (_event, code, description) =>
        reject(new Error(`the page did not load: ${description} (${code})`)),
      )
    })
  }
  const answer: unknown = await contents.executeJavaScript(
    `window[${JSON.stringify(BRIDGE_GLOBAL)}].invoke('app.info', {})`,
    true,
  )
  return readAppInfo(answer)
}

/** The answer as the preload hands it to the page: the Result as JSON text. */
export function readAppInfo(answer: unknown): SmokeFacts {
  const result: unknown = typeof answer === 'string' ? JSON.parse(answer) : answer
  if (typeof result !== 'object' || result === null || !('ok' in result)) {
    throw new Error(`app.info answered something that is not a Result: ${String(answer)}`)
  }
  if (result.ok !== true || !('value' in result)) {
    throw new Error(`app.info failed: ${JSON.stringify(result)}`)
  }
  const value = result.value as { mode?: unknown; version?: unknown }
  if (value.mode !== 'desktop' || typeof value.version !== 'string') {
    throw new Error(`app.info answered an unexpected value: ${JSON.stringify(value)}`)
  }
  return { mode: value.mode, version: value.version }
}
