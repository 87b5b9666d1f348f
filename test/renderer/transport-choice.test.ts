import { describe, expect, it } from 'vitest'
import type { BridgeTransport } from '../../src/shared/bridge'
import { BRIDGE_GLOBAL } from '../../src/shared/bridge'
import { chooseTransport, DESKTOP_BRIDGE_MISSING } from '../../src/renderer/src/transport-choice'

/*
 * The desktop page is loaded from file:. When its preload failed, the renderer used to fall back
 * to web mode's transport and show web mode's "missing secret"; now every call says the desktop
 * bridge did not load.
 */

const web: BridgeTransport = {
  invoke: () => Promise.resolve({ ok: true, value: 'web' }),
  subscribe: () => () => undefined,
}

describe('the transport a page gets', () => {
  it("is the preload's when it exposed one", () => {
    const preload: BridgeTransport = {
      invoke: () => Promise.resolve(null),
      subscribe: () => () => undefined,
    }
    const scope = { location: { protocol: 'file:' }, [BRIDGE_GLOBAL]: preload }
    expect(chooseTransport(scope, () => web)).toBe(preload)
  })

  it("is web mode's on an http page without one", () => {
    expect(chooseTransport({ location: { protocol: 'http:' } }, () => web)).toBe(web)
  })

  it('says the desktop bridge did not load on a file: page without one', async () => {
    const chosen = chooseTransport({ location: { protocol: 'file:' } }, () => web)
    expect(chosen).not.toBe(web)
    await expect(chosen.invoke('app.info', {})).resolves.toEqual({
      ok: false,
      error: { code: 'DESKTOP_BRIDGE_MISSING', message: DESKTOP_BRIDGE_MISSING },
    })
  })
})
