import { utilityProcess } from 'electron'
import { setSandboxLauncher } from '../sandbox-process/launch'
import type { SandboxLauncher } from '../sandbox-process/launch'

/*
 * The desktop app starts the embedded sandbox as an Electron utility process: the packaged app
 * turns the RunAsNode fuse off (electron-builder.yml), so child_process.fork would start a
 * second copy of the app there instead of Node. Electron ends its utility processes with the
 * app. The sandbox writes nothing on stdout; its stderr goes where the app's goes.
 */
export const utilitySandboxLauncher: SandboxLauncher = (entry) => {
  const child = utilityProcess.fork(entry.modulePath, [], {
    serviceName: 'Infradesk local sandbox',
    execArgv: entry.execArgv,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return {
    get pid() {
      return child.pid
    },
    send: (message) => child.postMessage(message),
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', listener),
    kill: () => void child.kill(),
  }
}

/** Called once at start, before the desk could start the sandbox. */
export function installSandboxLauncher(): void {
  setSandboxLauncher(utilitySandboxLauncher)
}
