import { describe, expect, it } from 'vitest'
import { expiringWithin, parseExpiringDays } from '../../src/cli/commands/certs'
import { completionScript } from '../../src/cli/completion'
import { CliError, EXIT, exitCodeOf } from '../../src/cli/exit-codes'
import { collectKeyValue, parseSince } from '../../src/cli/parse'
import { buildProgram } from '../../src/cli/program'
import { ID_KINDS } from '../../src/renderer/src/lib/id-kinds'
import type { CertificateCacheEntry } from '../../src/main/cache/certificates'

/* The CLI's pure parts: the exit-code table, option parsing, the expiry filter, completion. */

describe('exit codes', () => {
  /** Each exit code and the error codes that end a command with it. */
  const CODES_BY_EXIT: Array<[exit: number, codes: string[]]> = [
    [EXIT.usage, ['VALIDATION_ERROR']],
    [EXIT.auth, ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_SIGNED_IN']],
    [EXIT.notFound, ['NOT_FOUND']],
    [EXIT.conflict, ['CONFLICT']],
    [EXIT.network, ['OFFLINE', 'TIMEOUT', 'TLS_ERROR']],
    [EXIT.badAnswer, ['BAD_RESPONSE', 'INTEGRITY_ERROR']],
    [EXIT.other, ['INTERNAL_ERROR', 'NOT_WRITABLE']],
  ]
  it.each(CODES_BY_EXIT.flatMap(([exit, codes]) => codes.map((code) => [code, exit] as const)))(
    '%s exits %i',
    (code, exit) => {
      expect(exitCodeOf({ code })).toBe(exit)
    },
  )

  it('names the fields of a validation error in its one line', () => {
    const error = CliError.fromBridge({
      code: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [
        { path: ['query', 'limit'], message: 'Expected number' },
        { path: [], message: 'Too big' },
      ],
    })
    expect(error.message).toBe(
      'VALIDATION_ERROR: Request validation failed (query.limit: Expected number; Too big)',
    )
    expect(error.exitCode).toBe(EXIT.usage)
  })
})

describe('option values', () => {
  it('reads --since as a date or a span back from now', () => {
    const now = Date.parse('2026-11-25T12:00:00Z')
    expect(parseSince('7d', now)).toBe(now - 7 * 86_400_000)
    expect(parseSince('90m', now)).toBe(now - 90 * 60_000)
    expect(parseSince('2026-11-01', now)).toBe(Date.parse('2026-11-01'))
    expect(() => parseSince('last week', now)).toThrow(/ISO 8601/)
  })

  it('collects repeated k=v options, the value kept whole', () => {
    expect(collectKeyValue('b=x=y', collectKeyValue('a=1'))).toEqual({ a: '1', b: 'x=y' })
    expect(() => collectKeyValue('=1')).toThrow(/key=value/)
  })
})

describe('certs list --expiring', () => {
  it('keeps those ending before DAYS ahead, expired ones too, soonest first; not the undated', () => {
    const now = Date.parse('2026-11-25T00:00:00Z')
    const entry = (id: string, notAfter: string | null) =>
      ({ row: { id, notAfter }, item: { id } }) as unknown as CertificateCacheEntry
    const entries = [
      entry('soon', '2026-12-01T00:00:00Z'),
      entry('expired', '2026-11-24T00:00:00Z'),
      entry('edge', '2026-12-24T23:59:59Z'),
      entry('at-the-bound', '2026-12-25T00:00:00Z'),
      entry('undated', null),
    ]
    expect(expiringWithin(entries, 30, now).map((kept) => kept.row.id)).toEqual([
      'expired',
      'soon',
      'edge',
    ])
  })

  it('reads DAYS as the app does: whole days from 1 to 3650', () => {
    expect(parseExpiringDays('30')).toBe(30)
    expect(parseExpiringDays('3650')).toBe(3650)
    for (const bad of ['0', '-5', '5000', '1.5', 'x', ''])
      expect(() => parseExpiringDays(bad)).toThrow(/1 to 3650/)
  })
})

describe('completion', () => {
  it('knows every command of the table in each shell', () => {
    const program = buildProgram('0.0.0-test')
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const script = completionScript(program, shell)
      for (const word of [
        ...['profiles', 'sessions', 'certs', 'volumes', 'databases', 'incidents'],
        ...['sql', 'call', 'activity'],
      ]) {
        expect(script).toContain(word)
      }
      // `incidents list` and its own options, as for every command of the table.
      if (shell === 'fish') {
        expect(script).toContain(
          "-n '__fish_seen_subcommand_from incidents; and not __fish_seen_subcommand_from list' -a 'list'",
        )
      } else {
        expect(script).toMatch(/'incidents list'\) opts='[^']*--json[^']*--csv/)
      }
      expect(script).toContain('listCertificates')
      expect(script).toContain('confirm-write')
      // The global options after a command's words, as the parser takes them.
      expect(script).toMatch(/sessions list.*--profile|list.* -l profile/s)
    }
  })
})

describe('the app names CLI commands that exist', () => {
  // The id kinds' "or run infradesk … list" lines (shown under a 404 and in the id fields'
  // hints) must name commands the CLI has: a renamed or missing command would send users nowhere.
  it('every command of the id kinds table is a command of the program', () => {
    const program = buildProgram('0.0.0-test')
    const named = Object.values(ID_KINDS).flatMap((words) => ('cli' in words ? [words.cli] : []))
    expect(named).toContain('infradesk incidents list')
    for (const line of named) {
      const [, ...words] = line.split(' ')
      let command = program
      for (const word of words) {
        const next = command.commands.find((candidate) => candidate.name() === word)
        expect(next, `${line}: no command "${word}"`).toBeDefined()
        command = next ?? command
      }
    }
  })
})
