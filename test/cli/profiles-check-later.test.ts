import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, type TempDir } from '../support/tools'
import { createCliRunner, jsonOf } from './support'

/*
 * `infradesk profiles add --check-later`, the app's "Save anyway, check later": against a URL
 * where nothing listens, the profile and its token are saved unchecked (exit 0, listed as not
 * verified); without the option the add fails as unreachable (exit 6) and names the option; a
 * service that answers and refuses the token is never saved, option or not (exit 3). Run under
 * scripts/with-keyring.mjs (the token goes to that throwaway keychain).
 */

const TOKEN = 'check-later-token-0123456789'

let temp: TempDir
const { cli, runs } = createCliRunner(() => ({ XDG_CONFIG_HOME: path.join(temp.dir, 'config') }))

/** A port that was free a moment ago and has nothing listening on it now. */
let downUrl: string
/** A service that answers every request 401 (a token it refuses). */
let refusing: Server
let refusingUrl: string

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

beforeAll(async () => {
  temp = await makeTempDir('infradesk-cli-check-later')
  const closed = createServer()
  downUrl = await listen(closed)
  await new Promise((resolve) => closed.close(resolve))
  refusing = createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ code: 'UNAUTHORIZED', message: 'Invalid token' }))
  })
  refusingUrl = await listen(refusing)
})

afterAll(async () => {
  for (const run of runs) expect(run.stdout + run.stderr + run.args.join(' ')).not.toContain(TOKEN)
  await new Promise((resolve) => refusing?.close(resolve))
  await temp?.remove()
})

const listed = async () =>
  jsonOf<Array<{ name: string; unverified?: boolean }>>(await cli(['profiles', 'list', '--json']))

describe('profiles add --check-later', () => {
  it('without it, an unreachable service stops the add (exit 6) and the error names the option', async () => {
    const refused = await cli(['profiles', 'add', 'Down', '--url', downUrl], {
      input: `${TOKEN}\n`,
    })
    expect(refused.code, refused.stderr).toBe(6)
    expect(refused.stderr).toContain('--check-later')
    expect(await listed()).toEqual([])
  })

  it('with it, the profile is saved unchecked (exit 0), said so, and listed as not verified', async () => {
    const help = await cli(['profiles', 'add', '--help'])
    expect(help.stdout).toContain('--check-later')
    expect(help.stdout).toContain('save anyway, check later')

    const added = await cli(['profiles', 'add', 'Later', '--url', downUrl, '--check-later'], {
      input: `${TOKEN}\n`,
    })
    expect(added.code, added.stderr).toBe(0)
    expect(added.stderr).toContain('Added "Later"')
    expect(added.stderr).toContain('Not verified yet')
    expect(await listed()).toEqual([
      expect.objectContaining({ name: 'Later', signedIn: true, unverified: true }),
    ])
    const table = await cli(['profiles', 'list'])
    expect(table.stdout).toMatch(/Later .*not verified/)

    // A command working as it tries the service first: still down, exit 6, still saved.
    const sessions = await cli(['sessions', 'list', '--profile', 'Later'])
    expect(sessions.code, sessions.stderr).toBe(6)
    expect((await listed()).map((profile) => profile.name)).toEqual(['Later'])
    expect((await cli(['profiles', 'remove', 'Later'])).code).toBe(0)
  })

  it('a service that answers and refuses the token: never saved, with or without it (exit 3)', async () => {
    const refused = await cli(
      ['profiles', 'add', 'Refused', '--url', refusingUrl, '--check-later'],
      { input: `${TOKEN}\n` },
    )
    expect(refused.code, refused.stderr).toBe(3)
    expect(await listed()).toEqual([])
  })
})
