import { app, dialog } from 'electron'
import type { BrowserWindow } from 'electron'

/*
 * A window whose page cannot load, whose preload failed or whose renderer died says so. Without
 * this the window stays hidden (it is shown on ready-to-show, which a failed load never sends),
 * or shows web mode's "missing secret" page (the bridge fell back to the web transport), or stays
 * blank after a crash: the user sees nothing and has nothing to report.
 */

export interface WindowFailure {
  kind: 'load' | 'preload' | 'renderer-gone'
  /** One sentence for the user; never a token (nothing here reads one). */
  message: string
  /** What Chromium or Electron said, for the details and the log. */
  detail: string
  /** Whether loading the page again can help (a broken preload file stays broken). */
  reloadable: boolean
}

/** Chromium's net::ERR_ABORTED: a load replaced by another (a deep link's route), not a failure. */
const ERR_ABORTED = -3

/** Calls `report` for each failure of the window's page; the caller decides what the user sees. */
export function watchWindowFailures(
  window: BrowserWindow,
  report: (failure: WindowFailure) => void,
): void {
  const contents = window.webContents
  contents.on('did-fail-load', (_event, errorCode, errorDescription, validatedURL, isMainFrame) => {
    if (!isMainFrame || errorCode === ERR_ABORTED) return
    report({
      kind: 'load',
      message: 'Infradesk could not load its window.',
      detail: `${errorDescription} (${errorCode}) loading ${validatedURL}`,
      reloadable: true,
    })
  })
  contents.on('preload-error', (_event, preloadPath, error) => {
    report({
      kind: 'preload',
      message:
        "The window could not connect to Infradesk's core (its preload script failed). Reinstalling Infradesk should repair it.",
      detail: `${preloadPath}: ${error.message}`,
      reloadable: false,
    })
  })
  contents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return
    report({
      kind: 'renderer-gone',
      message: "Infradesk's window stopped working.",
      detail: `The page's process ended: ${details.reason} (exit code ${details.exitCode})`,
      reloadable: true,
    })
  })
}

/**
 * The interactive answer to a failure: the window is shown (it may still be hidden) and a dialog
 * says what failed, offering to load the page again when that can help, or to quit. One dialog at
 * a time: a crash loop does not stack them.
 */
export function failureDialog(
  window: () => BrowserWindow | null,
  reload: () => void,
): (failure: WindowFailure) => void {
  let open = false
  return (failure) => {
    console.error(`Infradesk window: ${failure.message} ${failure.detail}`)
    if (open) return
    open = true
    const parent = window()
    const usable = parent !== null && !parent.isDestroyed()
    if (usable && !parent.isVisible()) parent.show()
    const buttons = failure.reloadable ? ['Reload', 'Quit'] : ['Quit']
    const options: Electron.MessageBoxOptions = {
      type: 'error',
      title: 'Infradesk',
      message: failure.message,
      detail: failure.detail,
      buttons,
      defaultId: 0,
      cancelId: buttons.length - 1,
      noLink: true,
    }
    void (usable ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options))
      .then(({ response }) => {
        open = false
        if (buttons[response] === 'Reload') reload()
        else app.quit()
      })
      .catch(() => {
        open = false
      })
  }
}
