import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CommanderError } from 'commander'
import { CliError, EXIT } from './exit-codes'
import type { ExitCode } from './exit-codes'
import { writeError } from './output'
import { buildProgram } from './program'
import { TOKEN_ENV } from './session'

/*
 * `infradesk`: parses the command line, runs the command, and turns whatever ended it into
 * the documented exit code with its reason on stderr in one line (src/cli/exit-codes.ts).
 */

const REFUSED_TOKEN =
  `a token is never taken as a command-line argument (it would show in process listings and ` +
  `shell history): use --profile NAME (the keychain) or --url URL with ${TOKEN_ENV}`

/** `--token` or `--token=…` before a `--`: refused before anything parses (or echoes) it. */
function asksForTokenArgument(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false
    if (arg === '--token' || arg.startsWith('--token=')) return true
  }
  return false
}

function packageVersion(): string {
  // src/cli/main.ts (tsx) or out/cli/*.js: package.json two folders up either way.
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json')
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0'
  } catch {
    return '0.0.0'
  }
}

/** Cuts the environment's token out of a message, should anything ever echo it. */
function withoutToken(message: string): string {
  const token = process.env[TOKEN_ENV]?.trim()
  return token ? message.split(token).join('[token]') : message
}

export async function runCli(argv: string[]): Promise<ExitCode> {
  if (asksForTokenArgument(argv)) {
    writeError(REFUSED_TOKEN)
    return EXIT.usage
  }
  const program = buildProgram(packageVersion())
  program.configureOutput({
    // commander's own errors (unknown option, missing argument): one line, exit 2 below.
    outputError: (text) => writeError(withoutToken(text.replace(/^error:\s*/i, '').trim())),
  })
  try {
    await program.parseAsync(argv, { from: 'user' })
    return EXIT.ok
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here too, with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage
    }
    if (error instanceof CliError) {
      writeError(withoutToken(error.message))
      return error.exitCode
    }
    writeError(withoutToken(error instanceof Error ? error.message : String(error)))
    return EXIT.other
  }
}
