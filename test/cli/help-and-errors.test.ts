import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { bridgeErrorText } from '../../src/cli/error-text'
import { CliError, EXIT } from '../../src/cli/exit-codes'
import { buildProgram } from '../../src/cli/program'

/*
 * What `infradesk` says without a service: its help texts (the exit-code table once, at the
 * top; no operation numbers of the interface, which a user never sees elsewhere) and the one
 * line a failure prints (PostgreSQL's own words for a refused statement, the option that sends
 * a held-back write).
 */

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)]
}

/** A command's whole help, as `infradesk … --help` prints it (commander's text and the after-text). */
function helpOf(command: Command): string {
  let text = ''
  command.configureOutput({ writeOut: (chunk) => (text += chunk) })
  try {
    command.outputHelp()
  } finally {
    command.configureOutput({ writeOut: (chunk) => process.stdout.write(chunk) })
  }
  return text
}

describe('help texts', () => {
  const program = buildProgram('0.0.0-test')
  const commands = allCommands(program)

  it('list the exit codes once, in infradesk --help; every other help points there', () => {
    expect(helpOf(program)).toContain('Exit codes:\n  0  success')
    for (const command of commands.slice(1)) {
      const help = helpOf(command)
      expect(help, command.name()).not.toContain('0  success')
      expect(help, command.name()).toContain('Exit codes: see `infradesk --help`')
    }
  })

  it('name no operation number of the interface ("op 5", "every page of op 16")', () => {
    for (const command of commands) {
      expect(helpOf(command), command.name()).not.toMatch(/\bop \d+\b/i)
    }
  })

  it('say what sql --json prints: one entry per statement, a statement without rows as its command tag', () => {
    const sql = program.commands.find((command) => command.name() === 'sql') as Command
    const help = helpOf(sql).replace(/\s+/g, ' ')
    expect(help).toContain('{command, rowCount} when it returns no rows')
    expect(help).toContain('several statements as an array of those, one entry per statement')
  })

  it('offer `incidents list`, with --json and --csv', () => {
    const incidents = program.commands.find((command) => command.name() === 'incidents')
    expect(incidents?.commands.map((command) => command.name())).toEqual(['list'])
    expect(helpOf(program)).toMatch(/incidents\s+status page incidents/)
    const list = incidents?.commands[0] as Command
    expect(helpOf(list)).toMatch(/--json[\s\S]*--csv/)
  })

  it('offer `databases list`', () => {
    const databases = program.commands.find((command) => command.name() === 'databases')
    expect(databases?.commands.map((command) => command.name())).toEqual(['list'])
    expect(helpOf(program)).toMatch(/databases\s+databases the app knows of/)
  })
})

describe('the line a failure prints', () => {
  it("keeps PostgreSQL's message, where it failed and its SQLSTATE (the service's code last)", () => {
    const error = CliError.fromBridge({
      code: 'UNPROCESSABLE_ENTITY',
      message: 'Request could not be processed',
      status: 422,
      details: {
        sqlState: '42P01',
        position: 15,
        message: 'relation "no_such_table" does not exist',
      },
    })
    expect(error.message).toBe(
      'PostgreSQL: relation "no_such_table" does not exist (at character 15 of the statement, ' +
        'SQLSTATE 42P01) [UNPROCESSABLE_ENTITY]',
    )
    expect(error.exitCode).toBe(EXIT.other)
    // Without a position, the SQLSTATE alone.
    expect(
      bridgeErrorText({
        code: 'UNPROCESSABLE_ENTITY',
        message: 'Request could not be processed',
        details: { sqlState: '22012', message: 'division by zero' },
      }),
    ).toBe('PostgreSQL: division by zero (SQLSTATE 22012) [UNPROCESSABLE_ENTITY]')
  })

  it('says how to send a write the guard held back (--confirm-write)', () => {
    for (const code of ['WRITE_NOT_CONFIRMED', 'DESTRUCTIVE_NOT_CONFIRMED']) {
      const text = bridgeErrorText({
        code,
        message: '"Prod" is protected: confirm this statement before it is sent (a write)',
      })
      expect(text).toMatch(/run the command again with --confirm-write$/)
      expect(text).toContain('"Prod" is protected')
    }
  })

  it('reads other errors as before: code, message and the fields a 400 names', () => {
    expect(
      bridgeErrorText({
        code: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [{ path: ['query', 'limit'], message: 'Expected number' }],
      }),
    ).toBe('VALIDATION_ERROR: Request validation failed (query.limit: Expected number)')
    // A message in details without PostgreSQL's facts is not taken for PostgreSQL's.
    expect(
      bridgeErrorText({ code: 'CONFLICT', message: 'Busy', details: { message: 'a rotation' } }),
    ).toBe('CONFLICT: Busy')
  })
})
