import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { readCsv as readCsvRecords } from '../support/csv-read'
import { repoRoot } from '../support/sandbox-process'
import { makeTempDir, type TempDir } from '../support/tools'

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

export interface CliHome {
  /**
   * The file's temporary folder: `config` in it is XDG_CONFIG_HOME (so the app's data folder is
   * the test's), `tmp` is TMPDIR (where a `--url` run makes its throwaway data folder).
   */
  readonly temp: TempDir
  /** The CLI's environment in this home, for a child the runner does not start. */
  env(): Record<string, string>
  cli: ReturnType<typeof createCliRunner>['cli']
  /** Every run of the file so far. */
  runs: CliRun[]
}

/**
 * A home for the CLI's runs of the calling file: made before its tests and removed after them,
 * once no run has shown any of `secrets()` (the tokens the file uses) in its arguments or output.
 */
export function useCliHome(name: string, { secrets }: { secrets?: () => string[] } = {}): CliHome {
  let temp: TempDir | undefined
  const home = (): TempDir => {
    if (temp === undefined) throw new Error('the CLI home is made in beforeAll')
    return temp
  }
  const env = () => ({
    XDG_CONFIG_HOME: path.join(home().dir, 'config'),
    TMPDIR: path.join(home().dir, 'tmp'),
  })
  const { cli, runs } = createCliRunner(env)
  beforeAll(async () => {
    temp = await makeTempDir(`infradesk-${name}`)
    mkdirSync(path.join(temp.dir, 'tmp'))
  })
  afterAll(async () => {
    try {
      for (const run of runs) {
        for (const secret of secrets?.() ?? []) {
          expect(run.args.join(' ')).not.toContain(secret)
          expect(run.stdout).not.toContain(secret)
          expect(run.stderr).not.toContain(secret)
        }
      }
    } finally {
      await temp?.remove()
    }
  })
  return {
    get temp() {
      return home()
    },
    env,
    cli,
    runs,
  }
}

/** `volumes export` of `volume` to `out`, against the service at `url`, its result as JSON. */
export const volumeExportArgs = (
  url: string,
  volume: { nodeId: string; name: string },
  out: string,
): string[] => [
  '--url',
  url,
  'volumes',
  'export',
  volume.nodeId,
  volume.name,
  '--out',
  out,
  '--json',
]

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
