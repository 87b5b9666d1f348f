import { Argument, Command } from 'commander'
import { activityCommands } from './commands/activity'
import { callCommand } from './commands/call'
import { certCommands } from './commands/certs'
import { databaseCommands } from './commands/databases'
import { incidentCommands } from './commands/incidents'
import { profileCommands } from './commands/profiles'
import { createRunner } from './commands/runner'
import { sessionCommands } from './commands/sessions'
import { sqlCommand } from './commands/sql'
import { volumeCommands } from './commands/volumes'
import { COMPLETION_SHELLS, completionScript } from './completion'
import type { CompletionShell } from './completion'
import { EXIT_CODE_HELP } from './exit-codes'
import { TOKEN_ENV } from './session'

/*
 * The command table (commander: subcommands, per-command help, choices, and options of the
 * program that are recognised before and after a command's words, so `infradesk --url U certs
 * list` and `infradesk certs list --url U` both work). Completion scripts are generated from it.
 */

const CONNECTION_HELP = `
Connecting:
  --profile NAME   a profile stored by the app; its token from the OS keychain
  --url URL        the service at URL; the token from the environment variable ${TOKEN_ENV}
A token is never taken as a command-line argument.`

const EXIT_CODES_POINTER = 'Exit codes: see `infradesk --help` (the same for every command).'

export function buildProgram(version: string): Command {
  const run = createRunner(version)
  const program = new Command('infradesk')
    .description("Infradesk from the terminal: the app's profiles, keychain, cache and checks")
    .version(version, '-V, --version', 'print the version')
    .option('--profile <name>', 'work as this stored profile (token from the keychain)')
    .option('--url <url>', `work against this service URL (token from ${TOKEN_ENV})`)
    .option('--ca-file <file>', 'trust the CA certificates in this PEM file (with --url)')
    .option('--data-dir <dir>', "the app's data folder (default: the desktop app's)")
    .addHelpText('after', `${CONNECTION_HELP}\n\n${EXIT_CODE_HELP}`)
    .showSuggestionAfterError()

  profileCommands(program, run)
  sessionCommands(program, run)
  certCommands(program, run)
  volumeCommands(program, run)
  databaseCommands(program, run)
  incidentCommands(program, run)
  sqlCommand(program, run)
  callCommand(program, run)
  activityCommands(program, run)

  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'the shell').choices([...COMPLETION_SHELLS]))
    .action((shell: CompletionShell) => {
      process.stdout.write(completionScript(program, shell))
    })

  // The exit codes are listed once, in `infradesk --help`; a command's help points there.
  // Every command's errors (commander's own) come to main.ts (exit 2).
  for (const command of allCommands(program)) {
    command.exitOverride()
    if (command !== program) command.addHelpText('after', `\n${EXIT_CODES_POINTER}`)
  }
  return program
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)]
}
