import { describe, expect, it } from 'vitest'
import type { AppLocation } from '../../src/main/shell/app-url'
import { isAppUrl } from '../../src/main/shell/app-url'

/*
 * On Windows the app's page is the same file whatever the case of its drive letter
 * (or of any part of its path: NTFS compares without case). Launched as `c:\…` (a lower-case
 * drive letter from a shortcut or a shell), the page Chromium reports and the path main computed
 * may differ in case; compared case-sensitively, every bridge call was refused. Windows' rules
 * are passed as the platform, so they are checked on this Linux machine.
 */

const installed: AppLocation = {
  kind: 'file',
  indexHtml: 'C:\\Program Files\\Infradesk\\resources\\app.asar\\out\\renderer\\index.html',
}
const page = 'file:///C:/Program%20Files/Infradesk/resources/app.asar/out/renderer/index.html'

describe('isAppUrl on Windows', () => {
  it('recognises the page whatever the case of the drive letter', () => {
    expect(isAppUrl(installed, page, 'win32')).toBe(true)
    expect(isAppUrl(installed, page.replace('/C:/', '/c:/'), 'win32')).toBe(true)
    const launchedLowerCase: AppLocation = {
      kind: 'file',
      indexHtml: installed.indexHtml.replace('C:', 'c:'),
    }
    expect(isAppUrl(launchedLowerCase, page, 'win32')).toBe(true)
    expect(isAppUrl(launchedLowerCase, `${page}#/migrations?id=x`, 'win32')).toBe(true)
  })

  it('recognises the page whatever the case of its folders (NTFS ignores it)', () => {
    expect(isAppUrl(installed, page.replace('Program%20Files', 'PROGRAM%20FILES'), 'win32')).toBe(
      true,
    )
  })

  it('still refuses any other file, another drive, a way out of the folder, or a host', () => {
    expect(isAppUrl(installed, page.replace('index.html', 'other.html'), 'win32')).toBe(false)
    expect(isAppUrl(installed, page.replace('/C:/', '/D:/'), 'win32')).toBe(false)
    expect(
      isAppUrl(installed, page.replace('out/renderer', 'out/renderer/%2e%2e/x'), 'win32'),
    ).toBe(false)
    expect(isAppUrl(installed, page.replace('file:///', 'file://evil/'), 'win32')).toBe(false)
  })

  it('keeps comparing with case on Linux and macOS paths', () => {
    const linux: AppLocation = { kind: 'file', indexHtml: '/opt/Infradesk/out/renderer/index.html' }
    expect(isAppUrl(linux, 'file:///opt/Infradesk/out/renderer/index.html', 'linux')).toBe(true)
    expect(isAppUrl(linux, 'file:///opt/infradesk/out/renderer/index.html', 'linux')).toBe(false)
  })
})
