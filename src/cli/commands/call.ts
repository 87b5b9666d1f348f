import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { Argument } from 'commander'
import { OPERATION_NAMES, operations, type OperationName } from '../../shared/api'
import { CONFIRM_WRITE_OPTION } from '../error-text'
import { CliError, EXIT } from '../exit-codes'
import { writeJson } from '../output'
import { collectKeyValue } from '../parse'
import type { CommandRunner } from './runner'

/*
 * `infradesk call OPERATION`: any of the service's 22 operations by name, through the app's
 * `service.call` (checked against the contract before it is sent, recorded in the activity log
 * when it changes something). Prints the service's answer as JSON. On a protected profile an
 * operation that changes something is sent only with `--confirm-write`, as the app asks before
 * every write there (and as `infradesk sql` refuses a write): `call` is no way around that.
 * runPostgresQuery's statement is judged by the SQL guard too: a destructive one, while the
 * settings ask first, needs `--confirm-write` on any profile.
 */

interface CallOptions {
  param?: Record<string, string>
  query?: Record<string, string>
  body?: string
  confirmWrite?: boolean
}

export function callCommand(program: Command, run: CommandRunner): void {
  program
    .command('call')
    .description("call any of the service's operations by name; prints its answer as JSON")
    .addArgument(new Argument('<operation>', 'the operation').choices([...OPERATION_NAMES]))
    .option('--param <k=v>', 'a path parameter (repeatable)', collectKeyValue)
    .option('--query <k=v>', 'a query parameter (repeatable)', collectKeyValue)
    .option('--body <json>', 'the JSON body: inline, @file.json, or @- for standard input')
    .option(
      CONFIRM_WRITE_OPTION,
      'confirm an operation that changes something (needed on a protected profile, and for a destructive statement)',
    )
    .addHelpText('after', `\nOperations:\n${operationList()}`)
    .action((operation: OperationName, options: CallOptions, command: Command) =>
      run(command, { needsProfile: true }, async (session) => {
        const body = await bodyOf(options.body)
        const profile = await session.profile()
        if (profile.protected && operations[operation].mutates && options.confirmWrite !== true) {
          throw new CliError(
            `"${profile.name}" is protected: ${operation} changes something, so it is not sent ` +
              `unconfirmed${operation === 'runPostgresQuery' ? ' (`infradesk sql` judges a statement first)' : ''}. ` +
              `To send it, run the command again with ${CONFIRM_WRITE_OPTION}`,
            EXIT.other,
          )
        }
        const answer = await session.call('service.call', {
          profileId: profile.id,
          operation,
          params: options.param ?? {},
          query: options.query ?? {},
          ...(body === undefined ? {} : { body }),
          // runPostgresQuery's statement is judged by the SQL guard, as `infradesk sql`'s are.
          confirmedWrite: options.confirmWrite === true,
        })
        writeJson(answer)
      }),
    )
}

function operationList(): string {
  return OPERATION_NAMES.map((name) => {
    const operation = operations[name]
    return `  ${name.padEnd(28)} ${operation.method.padEnd(6)} ${operation.path}`
  }).join('\n')
}

async function bodyOf(option: string | undefined): Promise<unknown> {
  if (option === undefined) return undefined
  let text = option
  if (option.startsWith('@')) {
    const file = option.slice(1)
    text = await readFile(file === '-' ? '/dev/stdin' : file, 'utf8').catch((error: unknown) => {
      throw CliError.usage(`Cannot read the body file ${file}: ${(error as Error).message}`)
    })
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw CliError.usage(`--body is not JSON: ${(error as Error).message}`)
  }
}
