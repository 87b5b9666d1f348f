import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { request } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CACHE_FILE_NAME, openCache } from '../../src/main/cache'
import { createTransferLog } from '../../src/main/cache/transfers'
import {
  createDownloadTickets,
  TICKET_LIFETIME_MS,
} from '../../src/main/transfers/download-tickets'
import { startWebHost } from '../../src/main/web/host'
import type { WebHost } from '../../src/main/web/host'
import { openTestDesk, type TestDesk } from '../support/desk'

/*
 * Web mode's "Download to this browser" over real HTTP, with a real desk whose
 * transfers log (real SQLite) holds finished exports: the page asks over the bridge (with the
 * launch secret) for a one-time ticket; the host serves the transfer's file once, as an
 * attachment, to a request that carries no secret; the ticket is then spent.
 */

const SECRET = 'download-secret-0123456789-abcdefghijklmnopq'
const ARCHIVE_BYTES = Buffer.from('a volume archive, pretend it is gzip\n'.repeat(1000))
const ARCHIVE_NAME = 'pgdata résumé.tar.gz'

let testDesk: TestDesk
let host: WebHost
/** Completed, its file on disk. */
let completedId: string
/** Completed, its file removed since. */
let removedId: string
/** Failed: no file. */
let failedId: string

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** Reads a whole answer. */
function collect(response: IncomingMessage, resolve: (answer: Answer) => void) {
  const chunks: Buffer[] = []
  response.on('data', (chunk: Buffer) => chunks.push(chunk))
  response.on('end', () =>
    resolve({
      status: response.statusCode ?? 0,
      headers: response.headers,
      body: Buffer.concat(chunks),
    }),
  )
}

function get(pathname: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: 'GET',
        path: pathname,
        agent: false,
        headers: { host: `127.0.0.1:${host.port}`, ...headers },
      },
      (response) => collect(response, resolve),
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

function invoke(channel: string, input: unknown, secret = SECRET): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(input)
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: 'POST',
        path: `/__bridge/invoke/${channel}`,
        agent: false,
        headers: {
          host: `127.0.0.1:${host.port}`,
          'content-type': 'application/json',
          'x-infradesk-secret': secret,
        },
      },
      (response) => collect(response, resolve),
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** A ticket's path, asked for over the bridge as the page does. */
async function ticketPath(transferId: string): Promise<string> {
  const answer = await invoke('transfers.downloadTicket', { transferId })
  const result = JSON.parse(answer.body.toString('utf8')) as {
    ok: boolean
    value?: { path: string }
  }
  if (!result.ok || result.value === undefined) {
    throw new Error(`No ticket: ${answer.body.toString('utf8')}`)
  }
  return result.value.path
}

beforeAll(async () => {
  testDesk = await openTestDesk(
    'web-download',
    {},
    {
      // What earlier exports left: rows in the transfers log, files in the downloads folder.
      beforeOpen(dataDir) {
        const downloads = path.join(path.dirname(dataDir), 'downloads')
        mkdirSync(downloads, { recursive: true })
        const archive = path.join(downloads, ARCHIVE_NAME)
        writeFileSync(archive, ARCHIVE_BYTES)
        const { cache } = openCache(path.join(dataDir, CACHE_FILE_NAME))
        const log = createTransferLog(cache)
        const started = {
          profileId: 'profile-1',
          profileName: 'Staging',
          kind: 'volume' as const,
          label: 'node-1 / pgdata',
          source: { operation: 'exportVolume', nodeId: 'node-1', name: 'pgdata' },
        }
        completedId = log.start(started).id
        log.finish(completedId, {
          state: 'completed',
          destination: archive,
          bytesDone: ARCHIVE_BYTES.length,
          sha256: createHash('sha256').update(ARCHIVE_BYTES).digest('hex'),
        })
        removedId = log.start(started).id
        log.finish(removedId, {
          state: 'completed',
          destination: path.join(downloads, 'gone.tar.gz'),
          bytesDone: 10,
          sha256: '0'.repeat(64),
        })
        failedId = log.start(started).id
        log.finish(failedId, { state: 'failed', errorCode: 'TIMEOUT', errorMessage: 'timed out' })
        cache.close()
      },
    },
  )
  mkdirSync(path.join(testDesk.temp.dir, 'renderer'))
  await testDesk.temp.write('renderer/index.html', '<!doctype html><title>app</title>')
  host = await startWebHost({
    desk: testDesk.desk,
    rendererDir: path.join(testDesk.temp.dir, 'renderer'),
    secret: SECRET,
  })
})

afterAll(async () => {
  await host?.close()
  await testDesk?.close()
})

describe('web mode: Download to this browser', () => {
  it('serves a finished transfer once, as an attachment, to a request without the secret', async () => {
    const ticket = await ticketPath(completedId)
    expect(ticket).toMatch(/^\/__bridge\/download\/[\w-]{43}$/)

    const first = await get(ticket)
    expect(first.status).toBe(200)
    expect(first.body.equals(ARCHIVE_BYTES)).toBe(true)
    expect(first.headers['content-type']).toBe('application/octet-stream')
    expect(first.headers['content-length']).toBe(String(ARCHIVE_BYTES.length))
    expect(first.headers['content-disposition']).toBe(
      `attachment; filename="pgdata r_sum_.tar.gz"; filename*=UTF-8''${encodeURIComponent(ARCHIVE_NAME)}`,
    )
    expect(first.headers['cache-control']).toBe('no-store')
    expect(first.headers['x-content-type-options']).toBe('nosniff')

    const again = await get(ticket)
    expect(again.status).toBe(410)
    expect(again.body.toString('utf8')).not.toContain('volume archive')
  })

  it('gives a new ticket for each download, each good once', async () => {
    const [one, two] = [await ticketPath(completedId), await ticketPath(completedId)]
    expect(one).not.toBe(two)
    expect((await get(two)).status).toBe(200)
    expect((await get(one)).status).toBe(200)
    expect((await get(one)).status).toBe(410)
  })

  it('refuses a ticket it never minted, however it is shaped', async () => {
    const real = await ticketPath(completedId)
    const forged = real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A')
    for (const wrong of [
      forged,
      '/__bridge/download/',
      '/__bridge/download/not-a-ticket',
      `/__bridge/download/${'A'.repeat(43)}`,
    ]) {
      const answer = await get(wrong)
      expect(answer.status, wrong).toBe(404)
      expect(answer.body.length, wrong).toBeLessThan(100)
    }
    // The forgeries did not spend the real ticket.
    expect((await get(real)).status).toBe(200)
  })

  it('serves only the file the transfers log recorded: no path from the request reaches the disk', async () => {
    const ticket = await ticketPath(completedId)
    for (const traversal of [
      `${ticket}/../../../data/${CACHE_FILE_NAME}`,
      `${ticket}%2F..%2F..%2Fetc%2Fpasswd`,
      '/__bridge/download/..%2F..%2Fdata%2Fprofiles.json',
      `/__bridge/download/${encodeURIComponent(path.join(testDesk.dataDir, CACHE_FILE_NAME))}`,
    ]) {
      const answer = await get(traversal)
      expect([400, 404], traversal).toContain(answer.status)
      expect(answer.body.toString('latin1'), traversal).not.toContain('SQLite format')
    }
    // Still unspent: none of those was its ticket.
    expect((await get(ticket)).status).toBe(200)
  })

  it('mints tickets only over the bridge, with the launch secret', async () => {
    const wrong = await invoke(
      'transfers.downloadTicket',
      { transferId: completedId },
      'x'.repeat(44),
    )
    expect(wrong.status).toBe(401)
    expect(wrong.body.toString('utf8')).not.toContain('/__bridge/download/')
  })

  it('has no ticket for a transfer without a file, and says when the file was removed', async () => {
    for (const transferId of [failedId, removedId]) {
      const answer = await invoke('transfers.downloadTicket', { transferId })
      const result = JSON.parse(answer.body.toString('utf8')) as {
        ok: boolean
        error?: { code: string }
      }
      expect(result.ok).toBe(false)
      expect(result.error?.code).toBe('NOT_FOUND')
    }
    // A file removed after its ticket was minted: 404 that says so, not a broken stream.
    const archive = path.join(testDesk.downloads, ARCHIVE_NAME)
    const ticket = await ticketPath(completedId)
    await rm(archive)
    const answer = await get(ticket)
    expect(answer.status).toBe(404)
    expect(answer.body.toString('utf8')).toMatch(/no longer on the host/)
  })

  it('marks a completed transfer whose file is gone in the transfers list', async () => {
    const rows = await testDesk.value<Array<{ id: string; fileMissing?: boolean }>>(
      'transfers.list',
      {},
    )
    expect(rows.find((row) => row.id === removedId)?.fileMissing).toBe(true)
    expect(rows.find((row) => row.id === failedId)?.fileMissing).toBeUndefined()
  })
})

describe('download tickets', () => {
  it('is good once, within its lifetime; then spent; an unknown one is unknown', () => {
    let now = 1_000_000
    const tickets = createDownloadTickets(() => now)
    const ticket = tickets.mint('transfer-1')
    const late = tickets.mint('transfer-2')
    expect(tickets.redeem(ticket)).toEqual({ kind: 'valid', transferId: 'transfer-1' })
    expect(tickets.redeem(ticket)).toEqual({ kind: 'spent' })
    now += TICKET_LIFETIME_MS + 1
    expect(tickets.redeem(late)).toEqual({ kind: 'spent' })
    const minted = tickets.mint('transfer-3')
    const altered = (minted.startsWith('A') ? 'B' : 'A') + minted.slice(1)
    expect(tickets.redeem(altered)).toEqual({ kind: 'unknown' })
    expect(tickets.redeem('../../etc/passwd')).toEqual({ kind: 'unknown' })
  })
})
