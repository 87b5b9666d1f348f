import type { Session } from 'electron'
import { isAppUrl } from './app-url'
import type { AppLocation } from './app-url'

/*
 * What the window's session may do beyond showing the app: almost nothing. Chromium asks the
 * session before a page gets the camera, the microphone, notifications, geolocation, MIDI, HID,
 * USB, serial, screen capture, a download or openExternal; every such request is refused, except
 * writing plain text to the clipboard from our own page (the copy buttons). The decision is a
 * plain function so it is tested without Electron (test/main/shell-policy.test.ts).
 */

/** The only permission the app's own page is given; the clipboard is never read. */
const ALLOWED_FOR_OUR_PAGE = new Set(['clipboard-sanitized-write'])

export function permissionAllowed(
  location: AppLocation,
  permission: string,
  requestingUrl: string | undefined,
): boolean {
  return (
    ALLOWED_FOR_OUR_PAGE.has(permission) &&
    requestingUrl !== undefined &&
    isAppUrl(location, requestingUrl)
  )
}

/** The subset of Electron's Session this policy uses (so a test can hand it a recorder). */
export type PolicySession = Pick<
  Session,
  | 'setPermissionRequestHandler'
  | 'setPermissionCheckHandler'
  | 'setDevicePermissionHandler'
  | 'setDisplayMediaRequestHandler'
  | 'on'
>

export function lockDownSession(session: PolicySession, location: AppLocation): void {
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(permissionAllowed(location, permission, details.requestingUrl ?? contents?.getURL()))
  })
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    permissionAllowed(location, permission, details.requestingUrl ?? requestingOrigin),
  )
  // WebHID, WebUSB and Web Serial: no device is ever offered to a page.
  session.setDevicePermissionHandler(() => false)
  // getDisplayMedia: no screen or window capture (an empty answer refuses the request).
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}))
  // Exports and volume archives are written by the main process; a page never downloads.
  session.on('will-download', (event) => event.preventDefault())
}
