import { startSandbox } from '../../sandbox'
import type { RunningSandbox } from '../../sandbox'
import { hostErrorOf, isHostRequest } from './protocol'
import type { HostMessage, HostRequest } from './protocol'

/*
 * The embedded sandbox's process (out/main/sandbox-host.js once built; run from source under
 * tsx in tests). Started by the app (launch.ts) with a message channel: Node's IPC when forked
 * by plain Node (web mode, tests), Electron's parentPort in a utility process (the desktop app).
 * It writes nothing on stdout; errors that became a 500 go to stderr, one line each.
 *
 * It never outlives the app: when the channel to the app closes (the app exited, crashed or
 * was killed), it exits at once. Nothing the sandbox holds lives on disk, so there is nothing
 * to close cleanly first. No SIGTERM handler either: the default action ends the process even
 * while a statement keeps its event loop busy.
 */

interface Channel {
  send(message: HostMessage): void
  onMessage(listener: (message: unknown) => void): void
}

/** Electron's utility-process port, as far as this file uses it (no electron import here). */
interface ParentPortLike {
  postMessage(message: unknown): void
  on(event: 'message', listener: (event: { data: unknown }) => void): void
}

function parentChannel(): Channel | null {
  const port = (process as NodeJS.Process & { parentPort?: ParentPortLike }).parentPort
  if (port !== undefined) {
    // Electron ends its utility processes with the app itself.
    return {
      send: (message) => port.postMessage(message),
      onMessage: (listener) => port.on('message', (event) => listener(event.data)),
    }
  }
  if (process.send === undefined) return null
  process.once('disconnect', () => process.exit(0))
  return {
    send: (message) => {
      // The app may be gone by the time an answer is ready; 'disconnect' ends us then.
      if (process.connected) process.send?.(message)
    },
    onMessage: (listener) => process.on('message', listener),
  }
}

function serve(channel: Channel): void {
  let sandbox: RunningSandbox | null = null

  async function start(request: Extract<HostRequest, { type: 'start' }>) {
    try {
      sandbox = await startSandbox({
        ...request.options,
        onUnexpectedError: (error) => {
          const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
          process.stderr.write(`sandbox: internal error: ${text.split('\n')[0]}\n`)
        },
      })
      channel.send({ type: 'ready', url: sandbox.url, tokens: sandbox.tokens })
    } catch (error) {
      channel.send({ type: 'failed', error: hostErrorOf(error) })
      // A process that failed to start is not reused: the app starts another one.
      setImmediate(() => process.exit(1))
    }
  }

  async function call(request: Extract<HostRequest, { type: 'call' }>) {
    try {
      if (sandbox === null) throw new Error('The sandbox has not started')
      const value =
        request.method === 'seed'
          ? sandbox.seed()
          : request.method === 'reinstateAdmin'
            ? sandbox.reinstateAdmin()
            : await sandbox.reset()
      channel.send({ type: 'reply', id: request.id, ok: true, value: value ?? null })
    } catch (error) {
      channel.send({ type: 'reply', id: request.id, ok: false, error: hostErrorOf(error) })
    }
  }

  channel.onMessage((message) => {
    if (!isHostRequest(message)) return
    if (message.type === 'start') void start(message)
    else void call(message)
  })
}

const channel = parentChannel()
if (channel === null) {
  process.stderr.write('sandbox-host: start it from the app (it needs a channel to its parent)\n')
  process.exit(2)
}
serve(channel)
