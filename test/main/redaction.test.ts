import { beforeEach, describe, expect, it } from 'vitest'
import {
  createServiceClient,
  redact,
  redactError,
  ServiceError,
  toBridgeError,
} from '../../src/main/api'
import type { Cache } from '../../src/main/cache'
import { createTransferLog } from '../../src/main/cache/transfers'
import {
  bridgeErrorOf,
  createSecretRegistry,
  recordActivity,
} from '../../src/main/features/context'
import type { DeskContext } from '../../src/main/features/context'
import type { StoredProfile } from '../../src/main/profiles'
import { base64, base64url, formEncoded, tokenLeaks } from '../support/token-forms'
import { useTempCacheFiles } from '../support/temp-cache'

/*
 * A token echoed back in another form (base64 of the Authorization header,
 * truncated, in another case, percent-encoded) is cut like the token itself, wherever an error
 * or a service text goes (the bridge, the transfers log, the activity log); and a very short
 * token no longer cuts letters out of ordinary words.
 */

/** A token as a service issues them. */
const PLAIN_TOKEN = 'imsA1b2C3d4E5f6G7h8I9j0KkLmNoPqRsT'
/** One whose characters percent-encoding and form encoding change. */
const SPECIAL_TOKEN = 'ims/Tok+en=2&9~y!Qz(w)Xv*k'

/** How a service or a proxy may quote the token; each must leave nothing of it. */
const ECHOES: [form: string, echo: (token: string) => string][] = [
  ['as is (kept behaviour)', (token) => token],
  ['base64 of the token', (token) => base64(token)],
  ['base64 of the token, unpadded', (token) => base64(token).replace(/=+$/, '')],
  ['base64 of "Bearer <token>"', (token) => base64(`Bearer ${token}`)],
  ['base64url of the token', (token) => base64url(token)],
  ['base64url of "Bearer <token>"', (token) => base64url(`Bearer ${token}`)],
  // The token at each of the three byte alignments inside a longer encoded text.
  ['base64, token at offset 0 of 3', (token) => base64(`Authorization: ${token}\r\n`)],
  ['base64, token at offset 1 of 3', (token) => base64(`Authorization: Bearer ${token}`)],
  ['base64, token at offset 2 of 3', (token) => base64(`X-Token: ${token}; path=/`)],
  ['base64url, token at offset 2 of 3', (token) => base64url(`X-Token: ${token}; path=/`)],
  ['a 12-character prefix', (token) => `${token.slice(0, 12)}…`],
  ['a 20-character prefix', (token) => token.slice(0, 20)],
  ['upper case', (token) => token.toUpperCase()],
  ['lower case', (token) => token.toLowerCase()],
  ['upper case, truncated to 12', (token) => token.slice(0, 12).toUpperCase()],
  ['base64 of the upper-cased header', (token) => base64(`BEARER ${token.toUpperCase()}`)],
  ['percent-encoded', (token) => encodeURIComponent(token)],
  ['percent-encoded, lower-case hex', (token) => encodeURIComponent(token).toLowerCase()],
  ['form-encoded (+ for a space)', (token) => formEncoded(`Bearer ${token}`)],
  ['percent-encoded, truncated to 12', (token) => encodeURIComponent(token.slice(0, 12))],
]

describe('redact: a token in every form it may be echoed', () => {
  for (const token of [PLAIN_TOKEN, SPECIAL_TOKEN]) {
    it.each(ECHOES)(`cuts ${token.slice(0, 7)}…: %s`, (_form, echo) => {
      const echoed = echo(token)
      const text = `The service said: "${echoed}" (request 42).`
      const result = redact(text, [token])
      expect(tokenLeaks(text, token), 'the case itself must hold the token').not.toEqual([])
      expect(result).not.toContain(echoed)
      expect(tokenLeaks(result, token)).toEqual([])
      // What surrounds the echo stays readable.
      expect(result).toMatch(
        /^The service said: "(?:[^"]*)\[redacted\](?:[^"]*)" \(request 42\)\.$/,
      )
    })
  }

  it('cuts a whole base64 word, so no edge character keeps a few of the token bits', () => {
    const encoded = base64(`Authorization: Bearer ${PLAIN_TOKEN}`)
    expect(redact(`Rejected: ${encoded}.`, [PLAIN_TOKEN])).toBe('Rejected: [redacted].')
  })

  it('does not cut a prefix shorter than 12 characters (ordinary text may share it)', () => {
    const short = PLAIN_TOKEN.slice(0, 11)
    expect(redact(`id ${short} here`, [PLAIN_TOKEN])).toBe(`id ${short} here`)
  })

  it('keeps the existing behaviour for real-length tokens, every occurrence, several tokens', () => {
    const other = 'zzOtherToken0987654321'
    expect(redact(`${PLAIN_TOKEN} and ${other}, ${PLAIN_TOKEN}`, [PLAIN_TOKEN, other])).toBe(
      '[redacted] and [redacted], [redacted]',
    )
    expect(redact('nothing secret here', [PLAIN_TOKEN])).toBe('nothing secret here')
    expect(redact(`x ${PLAIN_TOKEN} y`, ['', PLAIN_TOKEN])).toBe('x [redacted] y')
  })
})

describe('redact: a token shorter than 8 characters', () => {
  it('leaves ordinary words whole ("Could not connect" with a one-letter token)', () => {
    const message = 'Could not connect to the service: the connection was reset'
    expect(redact(message, ['t'])).toBe(message)
    expect(redact(message, ['on'])).toBe(message)
    expect(redact('xabcdefgx abcdefgh', ['abcdefg'])).toBe('xabcdefgx abcdefgh')
  })

  it("keeps the service client's own errors readable (they were [redacted] soup)", async () => {
    // Port 1 on loopback refuses at once: an OFFLINE error whose text the client redacts.
    const client = createServiceClient({ baseUrl: 'http://127.0.0.1:1', token: 't', maxRetries: 0 })
    const error = await client.call('listSessions', {}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ServiceError)
    expect((error as ServiceError).message).toMatch(/^Could not connect to http:\/\/127\.0\.0\.1:1/)
    expect((error as ServiceError).message).not.toContain('[redacted]')
  })

  it('still cuts it where it stands alone, as is, percent-encoded or in base64', () => {
    expect(redact('Token t is not valid', ['t'])).toBe('Token [redacted] is not valid')
    expect(redact('Authorization: Bearer t', ['t'])).toBe('Authorization: Bearer [redacted]')
    expect(redact('token=t&next=1', ['t'])).toBe('token=[redacted]&next=1')
    expect(redact('key "a/b" refused', ['a/b'])).toBe('key "[redacted]" refused')
    expect(redact('key a%2Fb refused', ['a/b'])).toBe('key [redacted] refused')
    expect(redact(`got ${base64('Bearer t')}`, ['t'])).toBe('got [redacted]')
    expect(redact(`got ${base64('Authorization: Bearer t')}!`, ['t'])).toBe('got [redacted]!')
    expect(redact(`got ${base64url('Bearer t')}`, ['t'])).toBe('got [redacted]')
    expect(redact(`got ${base64('t')} back`, ['t'])).toBe('got [redacted] back')
  })

  it('is remembered by the secret registry and cut from bridge errors', () => {
    const secrets = createSecretRegistry()
    secrets.remember('t')
    secrets.remember('')
    expect(secrets.list()).toEqual(['t'])
    const error = new ServiceError('FORBIDDEN', 'Could not connect with token t', {
      status: 403,
      details: { token: 't', note: 'the token' },
    })
    expect(bridgeErrorOf({ secrets }, error)).toEqual({
      code: 'FORBIDDEN',
      status: 403,
      message: 'Could not connect with token [redacted]',
      details: { token: '[redacted]', note: 'the token' },
    })
  })
})

describe('errors: message and details', () => {
  it('toBridgeError cuts the base64 header from message, details and detail keys', () => {
    const echoed = base64(`Bearer ${PLAIN_TOKEN}`)
    const error = new ServiceError('FORBIDDEN', `credentials ${echoed} refused`, {
      details: [{ path: ['headers', echoed], message: PLAIN_TOKEN.toUpperCase() }, { [echoed]: 1 }],
    })
    const bridged = toBridgeError(error, [PLAIN_TOKEN])
    expect(JSON.stringify(bridged)).not.toContain(echoed)
    expect(tokenLeaks(JSON.stringify(bridged), PLAIN_TOKEN)).toEqual([])
    expect(bridged.message).toBe('credentials [redacted] refused')
  })

  it('redactError finds a token that JSON escaping would hide (quotes, backslashes)', () => {
    const token = 'tok"en\\with-quotes-0123'
    const error = new ServiceError('VALIDATION_ERROR', 'Invalid request', {
      details: { echoed: `header was ${token}` },
    })
    const redacted = redactError(error, [token])
    expect(redacted.details).toEqual({ echoed: 'header was [redacted]' })
  })

  it('redactError keeps an untouched error as it is, cause included', () => {
    const error = new ServiceError('NOT_FOUND', 'No such volume', {
      details: { id: 'x' },
      cause: new Error('inner'),
    })
    expect(redactError(error, [PLAIN_TOKEN])).toBe(error)
  })
})

describe('what SQLite stores', () => {
  const caches = useTempCacheFiles('redaction')
  let cache: Cache
  beforeEach(() => {
    cache = caches.open().cache
  })

  const profile: StoredProfile = {
    id: 'p1',
    name: 'Prod',
    baseUrl: 'https://ims.example',
    color: '#2563eb',
    protected: false,
    kind: 'service',
    createdAt: 0,
  }

  it('the transfers log cuts a token from an error message a caller did not redact', () => {
    const log = createTransferLog(cache, { secrets: () => [PLAIN_TOKEN] })
    const transfer = log.start({
      profileId: profile.id,
      profileName: profile.name,
      kind: 'volume',
      label: 'node / data',
      source: {},
    })
    const echoed = base64(`Bearer ${PLAIN_TOKEN}`)
    const ended = log.finish(transfer.id, {
      state: 'failed',
      errorCode: 'FORBIDDEN',
      errorMessage: `The credentials ${echoed} may not do this`,
    })
    expect(ended?.errorMessage).toBe('The credentials [redacted] may not do this')
    expect(log.get(transfer.id)?.errorMessage).toBe('The credentials [redacted] may not do this')
  })

  it('the activity log cuts a token from a service success message and from errors', () => {
    const secrets = createSecretRegistry()
    secrets.remember(PLAIN_TOKEN)
    // recordActivity needs only the cache and the secrets of the desk's context.
    const context = { cache, secrets } as Pick<DeskContext, 'cache' | 'secrets'> as DeskContext
    recordActivity(context, profile, 'logout', 's1', {
      message: `Logged out ${PLAIN_TOKEN.slice(0, 14)}...`,
    })
    recordActivity(context, profile, 'logout', 's2', {
      error: new ServiceError('FORBIDDEN', `No: ${base64url(`Bearer ${PLAIN_TOKEN}`)}`),
    })
    const stored = cache.listActivity({ profileId: profile.id, limit: 10 })
    expect(stored.map((entry) => entry.message).sort()).toEqual([
      'Logged out [redacted]...',
      'No: [redacted]',
    ])
  })
})
