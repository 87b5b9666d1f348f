import { spawn } from 'node:child_process'

/**
 * Web mode's openExternal: the OS's own opener, given the URL as one argument (no shell, so no
 * quoting tricks). The caller has already checked the URL is https. Where there is no desktop to
 * open a browser on (a server, CI) it refuses instead of failing somewhere unseen.
 */
export function openInSystemBrowser(url: string): Promise<void> {
  const command = openerFor(process.platform, process.env)
  if (!command) return Promise.reject(new Error('No desktop session to open a browser in'))
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, [...command.args, url], { stdio: 'ignore', detached: true })
    child.once('error', reject)
    child.once('spawn', () => {
      child.unref()
      resolve()
    })
  })
}

function openerFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv) {
  if (platform === 'darwin') return { file: 'open', args: [] }
  // rundll32 takes the URL verbatim; `cmd /c start` would interpret & and ^ in it.
  if (platform === 'win32') return { file: 'rundll32', args: ['url.dll,FileProtocolHandler'] }
  if (env['DISPLAY'] || env['WAYLAND_DISPLAY']) return { file: 'xdg-open', args: [] }
  return null
}
