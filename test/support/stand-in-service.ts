import { createServer } from 'node:http'
import { afterAll, beforeAll } from 'vitest'
import { openTestDesk, type TestDesk } from './desk'
import { listenLocally, type ListeningServer } from './local-server'

/*
 * A stand-in of the service for what the sandbox cannot be made to do (an adversary's pages, a
 * worker's big lists): real HTTP on a loopback port, and a desk with a session-only profile on it.
 */

export interface StandInAnswers {
  /** Op 16's page `page` (from 1): a string is sent as it is, anything else as JSON. */
  certificatePage(page: number): unknown
  /** Op 1's body (what a token check reads). */
  sessions(): string
}

/** Answers op 16 and op 1 as told, and anything else 404 NOT_FOUND. */
export function startStandInService(answers: StandInAnswers): Promise<ListeningServer> {
  const server = createServer((request, response) => {
    request.resume()
    const url = new URL(request.url ?? '/', 'http://service')
    if (url.pathname === '/api/ssl-certificates') {
      const answer = answers.certificatePage(Number(url.searchParams.get('page') ?? '1'))
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(typeof answer === 'string' ? answer : JSON.stringify(answer))
      return
    }
    const found = request.url === '/auth/me/sessions'
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' })
    response.end(found ? answers.sessions() : '{"code":"NOT_FOUND","message":"Not found"}')
  })
  return listenLocally(server)
}

export interface StandInDesk {
  desk: TestDesk
  profileId: string
}

export interface StandInDeskOptions {
  /** The desk's request timeout (5 s unless told). */
  requestTimeoutMs?: number
  /** Sets the stand-in's answers before the profile is added (and its token checked). */
  beforeAdd?: () => void
}

/**
 * A desk with one session-only profile (named `name`, its token `<name>-token`) on the stand-in
 * at `url()` (read when the desk opens: the file's own `beforeAll` starts the stand-in), opened
 * before the calling block's tests and closed after them; its fields are set once that
 * `beforeAll` has run.
 */
export function useStandInDesk(
  name: string,
  url: () => string,
  options: StandInDeskOptions = {},
): StandInDesk {
  // Filled by the hook below, before any test of the block reads it.
  const world = {} as StandInDesk
  beforeAll(async () => {
    world.desk = await openTestDesk(name, { requestTimeoutMs: options.requestTimeoutMs ?? 5_000 })
    options.beforeAdd?.()
    const profile = await world.desk.addProfile(
      { url: url(), tokens: { admin: `${name}-token` } },
      { name, color: '#2563eb', sessionOnly: true },
    )
    world.profileId = profile.id
  })
  afterAll(async () => {
    await world.desk?.close()
  })
  return world
}
