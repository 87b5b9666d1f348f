import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ListeningServer } from '../support/local-server'
import { startStandInService } from '../support/stand-in-service'
import { LISTED_IDS, TWO_NOT_SHOWN, unlistedPage } from '../support/unlisted-pages'
import { type CliRun, jsonOf, readCsv, useCliHome } from './support'

/*
 * `infradesk certs list` prints the rows it has: an item the service listed without a usable
 * id cannot be printed, but it no longer hides the whole list from a script. Every certificate
 * with an id goes to stdout in the chosen format, stderr says how many items were left out and
 * why, and the exit code stays 7 (the list is not whole). The sandbox never lists such an item,
 * so a stand-in service does.
 */

const TOKEN = 'certs-list-partial-token'

let service: ListeningServer
const { cli } = useCliHome('certs-list-partial', { secrets: () => [TOKEN] })

beforeAll(async () => {
  service = await startStandInService({
    certificatePage: (page) => ({ data: unlistedPage(page) }),
    sessions: () => '[]',
  })
})

afterAll(async () => {
  await service?.close()
})

/** The ids a run printed, read back from each format. */
const idsIn: Record<string, (run: CliRun) => string[]> = {
  table: (run) =>
    run.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/)[0] ?? ''),
  csv: (run) => {
    const [header, ...rows] = readCsv(run.stdout)
    const at = header?.indexOf('ID') ?? -1
    return rows.map((row) => row[at] ?? '')
  },
  json: (run) => jsonOf<Array<{ id: string }>>(run).map((item) => item.id),
}

it.each([
  ['table', []],
  ['csv', ['--csv']],
  ['json', ['--json']],
])(
  'as a %s: the rows it has on stdout, the two left out on stderr, exit 7',
  async (format, flags) => {
    const run = await cli(['--url', service.url, 'certs', 'list', ...flags], {
      env: { INFRADESK_TOKEN: TOKEN },
    })
    expect(run.code, run.stderr).toBe(7)
    expect(idsIn[format]?.(run).sort()).toEqual(LISTED_IDS)
    expect(run.stderr).toContain('The list is incomplete (3 rows printed)')
    expect(run.stderr).toContain(TWO_NOT_SHOWN)
  },
)
