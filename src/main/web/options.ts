import { homedir } from 'node:os'
import path from 'node:path'
import { isSandboxFlavor, SANDBOX_FLAVORS } from '../../shared/sandbox-flavor'
import type { SandboxFlavor } from '../../shared/sandbox-flavor'

/** The product name Electron uses for the userData folder (package.json `productName`). */
export const APP_FOLDER_NAME = 'Infradesk'

export interface WebOptions {
  port: number
  /** The name in the printed URL; the socket is bound to 127.0.0.1 either way. */
  host: '127.0.0.1' | 'localhost'
  /** With no profile yet, explore the embedded sandbox at once. */
  sandbox: boolean
  /** Port of the embedded sandbox (0: any free port). */
  sandboxPort: number | undefined
  /** The embedded sandbox's personality (`--flavor`): default, variant or gateway. */
  sandboxFlavor: SandboxFlavor
  /** Start the embedded sandbox again for an existing sandbox profile (default true). */
  restoreSandbox: boolean
  dataDir: string
}

export class UsageError extends Error {}

export const USAGE = [
  'usage: npm run web -- [options]',
  '  --port N               port of the web host (default: any free port)',
  '  --sandbox              with no profile yet, open signed in to the embedded sandbox',
  '  --sandbox-port N       port for the embedded sandbox (default: any free port)',
  '  --flavor F             the embedded sandbox answers as default, variant or gateway',
  '                         (gateway: the rules of the real deployment; docs/SERVICE.md)',
  '  --no-sandbox-restart   do not restart the embedded sandbox for an existing sandbox profile',
  "  --data-dir DIR         profiles and cache folder (default: the desktop app's)",
  '  --host H               127.0.0.1 (default) or localhost; always bound to 127.0.0.1',
].join('\n')

/**
 * The folder Electron's app.getPath('userData') names on this OS, so web mode and the desktop
 * app share profiles, the cache and the window of history.
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', APP_FOLDER_NAME)
  if (platform === 'win32') {
    return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME)
  }
  const configHome = env['XDG_CONFIG_HOME']
  // Like Electron, a relative XDG_CONFIG_HOME is ignored (the XDG spec says it is invalid).
  const base = configHome && path.isAbsolute(configHome) ? configHome : path.join(home, '.config')
  return path.join(base, APP_FOLDER_NAME)
}

export function parseWebArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): WebOptions {
  const options: WebOptions = {
    port: 0,
    host: '127.0.0.1',
    sandbox: false,
    sandboxPort: undefined,
    sandboxFlavor: 'default',
    restoreSandbox: true,
    dataDir: defaultDataDir(process.platform, env),
  }
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string
    const [flag, inline] = arg.includes('=') ? splitOnce(arg) : [arg, undefined]
    const value = () => {
      const next = inline ?? argv[++index]
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`)
      return next
    }
    switch (flag) {
      case '--port':
        options.port = parsePort(flag, value())
        break
      case '--sandbox-port':
        options.sandboxPort = parsePort(flag, value())
        break
      case '--sandbox':
        options.sandbox = true
        break
      case '--flavor': {
        const flavor = value()
        if (!isSandboxFlavor(flavor)) {
          throw new UsageError(`--flavor must be one of ${SANDBOX_FLAVORS.join(', ')}`)
        }
        options.sandboxFlavor = flavor
        break
      }
      case '--no-sandbox-restart':
        // Leaves an existing sandbox profile offline: how "the sandbox is stopped" looks.
        options.restoreSandbox = false
        break
      case '--data-dir':
        options.dataDir = path.resolve(value())
        break
      case '--host': {
        const host = value()
        // Loopback only: web mode has no TLS and its secret must not cross a network.
        if (host !== '127.0.0.1' && host !== 'localhost') {
          throw new UsageError('--host must be 127.0.0.1 or localhost (web mode is loopback only)')
        }
        options.host = host
        break
      }
      case '--help':
      case '-h':
        throw new UsageError(USAGE)
      default:
        throw new UsageError(`unknown option ${arg}\n${USAGE}`)
    }
  }
  return options
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=')
  return [arg.slice(0, at), arg.slice(at + 1)]
}

function parsePort(flag: string, text: string): number {
  const port = Number(text)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`${flag} must be a port number from 0 to 65535`)
  }
  return port
}
