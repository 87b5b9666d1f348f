import { spawn } from 'node:child_process'
import path from 'node:path'
import { readCsv as readCsvRecords } from '../support/csv-read'
import { repoRoot } from '../support/sandbox-process'

/*
 * `infradesk` as a child process, exactly as a user's shell runs it: the bin script, its own
 * environment (a temporary XDG_CONFIG_HOME, so the app's data folder is the test's), standard
 * input given or closed. Every run is remembered so a test can check that no token ever
 * appeared in a child's arguments or output.
 */

export const BIN = path.join(repoRoot, 'bin', 'infradesk.mjs')

export interface CliRun {
  args: string[]
  code: number | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  env?: Record<string, string | undefined>
  input?: string
  /** The working folder (default: the repository). */
  cwd?: string
}

export function createCliRunner(baseEnv: () => Record<string, string | undefined>) {
  const runs: CliRun[] = []
  async function cli(args: string[], options: CliOptions = {}): Promise<CliRun> {
    const env: Record<string, string | undefined> = {
      ...process.env,
      NO_COLOR: '1',
      ...baseEnv(),
      ...options.env,
    }
    // Never inherited from the shell that runs the tests.
    if (options.env?.['INFRADESK_TOKEN'] === undefined) delete env['INFRADESK_TOKEN']
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? repoRoot,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.stdin.end(options.input ?? '')
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject)
      child.once('close', (exitCode) => resolve(exitCode))
    })
    const run = { args: child.spawnargs, code, stdout, stderr }
    runs.push(run)
    return run
  }
  return { cli, runs }
}

/** The run's stdout as JSON; the run's output in the message when it is not. */
export function jsonOf<T = unknown>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\n--- stderr ---\n${run.stderr}`)
  }
}

/** The CLI's CSV as a shell reads it: records end with LF (a terminal's) or CRLF. */
export function readCsv(text: string): string[][] {
  return readCsvRecords(text, { recordEnd: 'any' })
}
