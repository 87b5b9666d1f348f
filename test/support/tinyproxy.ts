import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import type { TempDir } from './tools'

/*
 * Debian's tinyproxy, started on a free loopback port with a config of the test's own: a real
 * HTTP proxy (CONNECT for https, absolute-form for http, Basic auth). Its log records every
 * request it handled, which is how a test proves traffic went through it, or did not.
 */

export interface Tinyproxy {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** The request lines tinyproxy logged (`CONNECT 127.0.0.1:443 HTTP/1.1`, `GET http://…`). */
  requests(): Promise<string[]>
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

async function waitForPort(port: number, deadline: number): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port })
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    if (Date.now() > deadline) throw new Error(`tinyproxy did not listen on ${port}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export async function startTinyproxy(
  temp: TempDir,
  name: string,
  options: { basicAuth?: { username: string; password: string } } = {},
): Promise<Tinyproxy> {
  const port = await freePort()
  const logFile = path.join(temp.dir, `${name}.log`)
  const lines = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 120',
    `LogFile "${logFile}"`,
    'LogLevel Connect',
    'MaxClients 50',
    'Allow 127.0.0.1',
    'DisableViaHeader Yes',
  ]
  if (options.basicAuth) {
    lines.push(`BasicAuth ${options.basicAuth.username} ${options.basicAuth.password}`)
  }
  const config = await temp.write(`${name}.conf`, `${lines.join('\n')}\n`)
  const child = spawn('tinyproxy', ['-d', '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const killChild = () => child.kill('SIGKILL')
  process.once('exit', killChild)
  try {
    await waitForPort(port, Date.now() + 10_000)
  } catch (error) {
    child.kill('SIGKILL')
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error })
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async requests() {
      const log = await readFile(logFile, 'utf8').catch(() => '')
      return [...log.matchAll(/Request \(file descriptor \d+\): (.*)$/gm)].map((m) => m[1] ?? '')
    },
    async stop() {
      process.off('exit', killChild)
      child.kill('SIGTERM')
      await exited
    },
  }
}
