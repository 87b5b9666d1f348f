import { execFileSync, spawn } from 'node:child_process'
import { open } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { stopOnInterrupt } from '../../src/cli/interrupt'
import { BIN, useCliHome } from './support'

/*
 * Ctrl-C or SIGTERM before a command's runner listens (bin/infradesk.mjs still has tsx load the
 * CLI) ends it as a signal during the command does: one line, exit 130 or 143. It was Node's
 * default: the process killed by the signal, nothing said. The child is held while its entry
 * module loads (hold-cli-entry.mjs, a module hook waiting on a FIFO), so the signal comes at a
 * known point of the start, not at a guessed time. Which handler answers it (the launcher's or,
 * once it listens, the runner's) is theirs to settle: the user sees the same either way.
 */

const home = useCliHome('interrupt-at-start')
const HOLD_ENTRY = path.join(import.meta.dirname, 'hold-cli-entry.mjs')

describe('a signal while the CLI starts', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('ends on %s while the entry loads: one line, exit %i', async (signal, exitCode) => {
    const fifo = path.join(home.temp.dir, `entry-${signal}`)
    execFileSync('mkfifo', [fifo])
    const child = spawn(process.execPath, ['--import', HOLD_ENTRY, BIN, 'profiles', 'list'], {
      env: { ...process.env, ...home.env(), NO_COLOR: '1', INFRADESK_HOLD_ENTRY: fifo },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('close', (code, killedBy) => resolve({ code, signal: killedBy })),
    )
    // Returns once the hook, holding the entry's load, opened the FIFO to read it.
    const writer = await open(fifo, 'w')
    try {
      child.kill(signal)
      // The load goes on. Its wait blocked the child's main thread (Node's module hooks answer
      // it synchronously), so the signal is taken once the load is done; without a handler
      // listening then, it had already killed the child.
      await writer.close()
      expect(await ended, stderr).toEqual({ code: exitCode, signal: null })
      expect(stderr).toBe('error: Interrupted\n')
      expect(stdout).toBe('')
    } finally {
      // A child still running (a failed expectation above) is not left behind.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await writer.close().catch(() => undefined)
    }
  })
})

describe("the runner's handler takes over from the start's", () => {
  const startHandler = Object.assign(() => undefined, {
    [Symbol.for('infradesk.interruptAtStart')]: true,
  })

  it('sets it aside while it listens and puts it back after: one handler answers', async () => {
    const signals = ['SIGINT', 'SIGTERM'] as const
    // Listeners the test runner itself may have: not ours to count.
    const others = new Map(signals.map((signal) => [signal, process.listeners(signal)]))
    const ours = (signal: (typeof signals)[number]) =>
      process.listeners(signal).filter((listener) => !others.get(signal)?.includes(listener))
    for (const signal of signals) process.on(signal, startHandler)
    try {
      const stopListening = stopOnInterrupt(async () => [])
      for (const signal of signals) {
        expect(ours(signal)).toHaveLength(1)
        expect(ours(signal)).not.toContain(startHandler)
      }
      await stopListening()
      for (const signal of signals) expect(ours(signal)).toEqual([startHandler])
    } finally {
      for (const signal of signals) process.off(signal, startHandler)
    }
  })
})
