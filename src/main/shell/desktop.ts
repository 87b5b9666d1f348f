import { app, dialog, Notification, shell } from 'electron'
import type { BrowserWindow } from 'electron'
import path from 'node:path'
import type { DesktopIntegration } from '../features/context'
import { escapeNotificationMarkup } from '../../shared/terminal-text'
import { createPowerSource } from './power'

/*
 * What only the desktop app can do, for the features (src/main/features/context.ts): native
 * save/open dialogs attached to the window, showing a file in the file manager, opening a
 * folder, and system notifications. Web mode has none of it (the desk gets null there).
 */

export function createDesktopIntegration(options: {
  window: () => BrowserWindow | null
}): DesktopIntegration {
  const parent = () => {
    const window = options.window()
    return window !== null && !window.isDestroyed() ? window : null
  }

  const shown = new Set<Notification>()

  return {
    async chooseSavePath({ title, defaultName, filters }) {
      const dialogOptions: Electron.SaveDialogOptions = {
        title,
        // The name was sanitised by the feature; the folder starts at the user's Downloads.
        defaultPath: path.join(app.getPath('downloads'), defaultName),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
        ...(filters === undefined ? {} : { filters }),
      }
      const window = parent()
      const result = window
        ? await dialog.showSaveDialog(window, dialogOptions)
        : await dialog.showSaveDialog(dialogOptions)
      return result.canceled || !result.filePath ? null : result.filePath
    },

    async chooseOpenFile({ title, filters }) {
      const dialogOptions: Electron.OpenDialogOptions = {
        title,
        properties: ['openFile'],
        ...(filters === undefined ? {} : { filters }),
      }
      const window = parent()
      const result = window
        ? await dialog.showOpenDialog(window, dialogOptions)
        : await dialog.showOpenDialog(dialogOptions)
      return result.canceled ? null : (result.filePaths[0] ?? null)
    },

    showItemInFolder(file) {
      shell.showItemInFolder(file)
    },

    async openPath(target) {
      // Electron reports a failure as a message, not a rejection.
      const failure = await shell.openPath(target)
      if (failure !== '') throw new Error(`Could not open ${target}: ${failure}`)
    },

    notify(title, body, onClick) {
      if (!Notification.isSupported()) return
      const notification = new Notification({ title, body: escapeNotificationMarkup(body) })
      if (onClick) {
        // Held until it is clicked or closed: a collected notification no longer reports a click.
        shown.add(notification)
        notification.on('close', () => shown.delete(notification))
        notification.on('click', () => {
          shown.delete(notification)
          // The window comes forward, then the feature says where it goes.
          const window = parent()
          if (window) {
            if (window.isMinimized()) window.restore()
            window.focus()
          }
          onClick()
        })
      }
      notification.show()
    },

    power: createPowerSource(),
  }
}
