import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { startTsxChild, type RunningChild } from './child'

/**
 * The app in web mode as `npm run web` runs it: the built `out/main/web.js --port 0 --data-dir
 * DIR` (the e2e run comes after `npm run build`).
 */
export interface WebApp {
  /**
   * The address to open: the launch secret is in its fragment (`/#secret=…`), which the page
   * moves into its sessionStorage; read it with launchSecretOf (web-protocol.ts).
   */
  url: string
  dataDir: string
  pid: number
  output(): string
  stop(): Promise<void>
}

export async function startWebApp(dataDir: string, env?: NodeJS.ProcessEnv): Promise<WebApp> {
  const child: RunningChild<{ url: string }> = await startTsxChild({
    script: 'out/main/web.js',
    args: ['--port', '0', '--data-dir', dataDir],
    readyPrefix: 'WEB_READY',
    readySchema: z.looseObject({ url: z.url() }),
    ...(env ? { env } : {}),
  })
  return { url: child.ready.url, dataDir, pid: child.pid, output: child.output, stop: child.stop }
}

/** A sandbox of the service in its own process, as an "external" service for the app. */
export interface ExternalSandbox {
  url: string
  tokens: { admin: string; viewer: string }
  /** tsx's launcher: the sandbox itself is its child process. */
  pid: number
  output(): string
  stop(): Promise<void>
}

export async function startSandbox(args: string[] = []): Promise<ExternalSandbox> {
  const child = await startTsxChild({
    script: 'src/sandbox/cli.ts',
    args: ['--port', '0', ...args],
    readyPrefix: 'SANDBOX_READY',
    readySchema: z.looseObject({
      url: z.url(),
      tokens: z.object({ admin: z.string().min(1), viewer: z.string().min(1) }),
    }),
  })
  return {
    url: child.ready.url.replace(/\/+$/, ''),
    tokens: child.ready.tokens,
    pid: child.pid,
    output: child.output,
    stop: child.stop,
  }
}

export async function makeDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'infradesk-e2e-'))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}
