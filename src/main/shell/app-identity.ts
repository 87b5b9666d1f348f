/*
 * Who the app is to the operating system, in one place for main and the packaging test
 * (test/build/packaging.test.ts compares these with electron-builder.yml and package.json).
 * Plain Node: no electron import.
 */

/**
 * electron-builder.yml's appId. On Windows it is also the AppUserModelID the installer writes on
 * the Start-menu and desktop shortcuts: main must set the same one (app.setAppUserModelId), or
 * toasts are attributed to no shortcut and may never show, and a pinned icon splits from the
 * running window.
 */
export const APP_ID = 'dev.infradesk.app'

/**
 * The Linux executable (electron-builder.yml linux.executableName) and its desktop entry
 * (package.json desktopName, which Electron reads for setAsDefaultProtocolClient and the window's
 * app_id, and the deb installs as /usr/share/applications/<name> with linux.syncDesktopName).
 * Not `infradesk`: that is the terminal companion's command (package.json bin).
 */
export const LINUX_EXECUTABLE = 'infradesk-desktop'
export const DESKTOP_ENTRY = `${LINUX_EXECUTABLE}.desktop`

/** The command-line switch of the scripted first-start check (shell/smoke.ts, docs/RELEASE.md). */
export const SMOKE_SWITCH = '--smoke'
