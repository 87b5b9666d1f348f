import { describe, expect, it } from 'vitest'
import type { AppLocation } from '../../src/main/shell/app-url'
import { lockDownSession, permissionAllowed } from '../../src/main/shell/session-policy'
import type { PolicySession } from '../../src/main/shell/session-policy'

/*
 * The Electron session's permission policy. Electron cannot run here, so the decision function
 * is tested directly, and lockDownSession is handed a recorder standing for the Session (the
 * only stand-in in this suite: the real Session exists only inside Electron).
 */

const location: AppLocation = {
  kind: 'file',
  indexHtml: '/opt/Infradesk/resources/app/out/renderer/index.html',
}
const ownPage = 'file:///opt/Infradesk/resources/app/out/renderer/index.html#/sessions'

// Every permission Electron 45 names for setPermissionRequestHandler and the check handler.
const PERMISSIONS = [
  'clipboard-read',
  'clipboard-sanitized-write',
  'display-capture',
  'fullscreen',
  'geolocation',
  'idle-detection',
  'media',
  'mediaKeySystem',
  'midi',
  'midiSysex',
  'notifications',
  'pointerLock',
  'keyboardLock',
  'openExternal',
  'speaker-selection',
  'storage-access',
  'top-level-storage-access',
  'window-management',
  'unknown',
  'fileSystem',
  'hid',
  'serial',
  'usb',
  'background-sync',
  'persistent-storage',
]

describe('permission policy', () => {
  it.each(PERMISSIONS)(
    'denies %s to every page, unless it is a clipboard write from our own page',
    (permission) => {
      for (const url of [ownPage, 'https://evil.test/', 'file:///etc/passwd', undefined]) {
        const expected = permission === 'clipboard-sanitized-write' && url === ownPage
        expect(permissionAllowed(location, permission, url), `${permission} ${url}`).toBe(expected)
      }
    },
  )

  it('installs the request, check, device and display-media handlers, and stops downloads', () => {
    const installed: Record<string, (...args: never[]) => unknown> = {}
    const recorder = {
      setPermissionRequestHandler: (handler: never) => (installed.request = handler),
      setPermissionCheckHandler: (handler: never) => (installed.check = handler),
      setDevicePermissionHandler: (handler: never) => (installed.device = handler),
      setDisplayMediaRequestHandler: (handler: never) => (installed.displayMedia = handler),
      on: (event: string, handler: never) => (installed[event] = handler),
    } as unknown as PolicySession
    lockDownSession(recorder, location)

    const answers: boolean[] = []
    const request = installed.request as unknown as (
      contents: { getURL(): string } | null,
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl?: string },
    ) => void
    request({ getURL: () => ownPage }, 'media', (granted) => answers.push(granted), {
      requestingUrl: ownPage,
    })
    request({ getURL: () => ownPage }, 'openExternal', (granted) => answers.push(granted), {})
    request(
      { getURL: () => ownPage },
      'clipboard-sanitized-write',
      (granted) => answers.push(granted),
      {},
    )
    request(null, 'clipboard-sanitized-write', (granted) => answers.push(granted), {
      requestingUrl: 'https://evil.test/',
    })
    expect(answers).toEqual([false, false, true, false])

    const check = installed.check as unknown as (
      c: null,
      p: string,
      o: string,
      d: { requestingUrl?: string },
    ) => boolean
    expect(check(null, 'notifications', ownPage, { requestingUrl: ownPage })).toBe(false)
    expect((installed.device as unknown as () => boolean)()).toBe(false)

    let displayAnswer: unknown = 'not answered'
    ;(installed.displayMedia as unknown as (r: unknown, cb: (s: unknown) => void) => void)(
      {},
      (streams) => (displayAnswer = streams),
    )
    expect(displayAnswer).toEqual({})

    let prevented = false
    ;(installed['will-download'] as unknown as (e: { preventDefault(): void }) => void)({
      preventDefault: () => (prevented = true),
    })
    expect(prevented).toBe(true)
  })
})
