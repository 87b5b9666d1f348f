import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDesk } from '../../src/main/desk'
import type { Desk } from '../../src/main/desk'
import { createVault } from '../../src/main/vault'
import type { TokenVault } from '../../src/main/vault'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ActivityEntry, ChannelOutput, Profile, Result } from '../../src/shared/bridge'
import { repoRoot } from '../support/sandbox-process'
import { makeTempDir, run } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The desk as the renderer meets it, through dispatch and events only, with every part real:
 * the embedded sandbox started in-process, a second sandbox standing for a remote service,
 * the OS keychain (gnome-keyring over D-Bus, checked from outside with secret-tool), the SQLite
 * cache and the profiles file in a temporary data folder, and a second desk over the same
 * folder standing for a restart of the app.
 */

const KEYRING_HINT =
  'The desk tests need a Secret Service on D-Bus. Run them under the throwaway keyring: ' +
  '`node scripts/with-keyring.mjs npx vitest run test/main/desk.test.ts` (`npm test` does this).'

/** A keychain service of this run only, so runs never see each other's items. */
const service = `Infradesk-desk-test-${randomUUID()}`

let temp: TempDir
let dataDir: string
let desk: Desk
let remote: RunningSandbox | null = null
/** Every Result and event the bridge carried, as JSON: checked for tokens at the end. */
const carried: string[] = []
const events: Array<{ event: string; payload: unknown }> = []
const opened: string[] = []

/** A vault of our own over the same keychain service, to look from outside the desk. */
function outsideVault(): TokenVault {
  return createVault({ service })
}

async function openDesk(): Promise<Desk> {
  const opening = await createDesk({
    dataDir,
    mode: 'web',
    openExternal: async (url) => {
      opened.push(url)
    },
    vault: createVault({ service }),
    version: '0.0.0-test',
    requestTimeoutMs: 15_000,
  })
  opening.onEvent((event, payload) => {
    events.push({ event, payload })
    carried.push(JSON.stringify(payload))
  })
  return opening
}

async function call(channel: string, input: unknown = {}): Promise<Result<unknown>> {
  const result = await desk.dispatch(channel, input)
  carried.push(JSON.stringify(result))
  return result
}

async function value<T = unknown>(channel: string, input: unknown = {}): Promise<T> {
  const result = await call(channel, input)
  if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
  return result.value as T
}

async function failure(channel: string, input: unknown = {}) {
  const result = await call(channel, input)
  if (result.ok) throw new Error(`${channel} succeeded but should have failed`)
  return result.error
}

/** What libsecret's own CLI finds in the keychain for a profile; null when nothing. */
async function keychainEntry(profileId: string): Promise<string | null> {
  const found = await run('secret-tool', ['lookup', 'service', service, 'account', profileId])
  return found.code === 0 ? found.stdout : null
}

type SessionList = ChannelOutput<'sessions.refresh'>

let sandboxProfile: Profile
let adminToken: string
let firstSessions: SessionList
let remoteProfile: Profile
let remoteSessions: SessionList
/** The sandbox's sessions after the restart (a restarted sandbox seeds new session ids). */
let restartedSessions: SessionList

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(KEYRING_HINT)
  const status = await outsideVault().status()
  if (!status.available) throw new Error(`${KEYRING_HINT} (${status.reason})`)
  temp = await makeTempDir('infradesk-desk')
  dataDir = path.join(temp.dir, 'data')
  desk = await openDesk()
})

afterAll(async () => {
  await desk?.close()
  await remote?.close()
  await temp?.remove()
})

// A story: the steps run in order and build on one another (the sandbox profile explored
// first, the restart, the logout), as the app's state does. Run the file whole; a step run
// alone with -t fails on the state it lacks. Steps that need no earlier state read only what
// they themselves did (their own activity entries, their own opened links).
describe('desk', () => {
  it('explores the embedded sandbox: a signed-in, active sandbox profile, token in the keychain', async () => {
    sandboxProfile = await value<Profile>('sandbox.explore')
    expect(sandboxProfile).toMatchObject({
      name: 'Local sandbox',
      kind: 'sandbox',
      signedIn: true,
      tokenStorage: 'keychain',
    })
    expect(sandboxProfile.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const listed = await value<ChannelOutput<'profiles.list'>>('profiles.list')
    expect(listed.activeId).toBe(sandboxProfile.id)
    expect(listed.profiles).toEqual([sandboxProfile])

    adminToken = (await outsideVault().get(sandboxProfile.id)) ?? ''
    expect(adminToken.length).toBeGreaterThan(8)
    expect(await keychainEntry(sandboxProfile.id)).toBe(adminToken)

    const seed = await value<Record<string, unknown>>('sandbox.seed')
    expect(seed).toHaveProperty('incidents.open')
    expect(seed).toHaveProperty('certificates.all')

    // Exploring again reuses the one sandbox profile.
    const again = await value<Profile>('sandbox.explore')
    expect(again.id).toBe(sandboxProfile.id)
    expect((await value<ChannelOutput<'profiles.list'>>('profiles.list')).profiles).toHaveLength(1)
  })

  it('refreshes the sessions from the service, one of them current, and caches them', async () => {
    const before = events.length
    firstSessions = await value<SessionList>('sessions.refresh', { profileId: sandboxProfile.id })
    expect(firstSessions.offline).toBe(false)
    expect(firstSessions.error).toBeNull()
    expect(firstSessions.fetchedAt).toEqual(expect.any(Number))
    expect(firstSessions.items.length).toBeGreaterThan(1)
    expect(firstSessions.items.filter((session) => session.isCurrent)).toHaveLength(1)
    expect(events.slice(before)).toContainEqual({
      event: 'cache.changed',
      payload: expect.objectContaining({ profileId: sandboxProfile.id }),
    })
    const cached = await value<SessionList>('sessions.cached', { profileId: sandboxProfile.id })
    expect(cached.items).toEqual(firstSessions.items)
    expect(cached.fetchedAt).toBe(firstSessions.fetchedAt)
  })

  it('records a mutating service.call in the activity log, success and failure', async () => {
    const seed = await value<{ incidents: { open: string[] } }>('sandbox.seed')
    const incident = seed.incidents.open[0]!
    const input = {
      profileId: sandboxProfile.id,
      operation: 'resolveIncident',
      params: { id: incident },
    }
    // Only this test's entries: the log lists the newest first.
    const logged = (await value<ActivityEntry[]>('activity.list', { profileId: sandboxProfile.id }))
      .length
    const resolved = await value<{ data: { id?: string } }>('service.call', input)
    expect(resolved.data.id).toBe(incident)
    const conflict = await failure('service.call', input)
    expect(conflict).toMatchObject({ code: 'CONFLICT', status: 409 })
    // A read is not activity.
    await value('service.call', { profileId: sandboxProfile.id, operation: 'listCertificates' })

    const log = await value<ActivityEntry[]>('activity.list', { profileId: sandboxProfile.id })
    const activity = log.slice(0, log.length - logged)
    expect(
      activity.map((entry) => [entry.operation, entry.targetId, entry.outcome, entry.errorCode]),
    ).toEqual([
      ['resolveIncident', incident, 'error', 'CONFLICT'],
      ['resolveIncident', incident, 'success', null],
    ])
    expect(activity[0]).toMatchObject({ profileName: 'Local sandbox' })
  })

  it('lists the inference catalog (op 6)', async () => {
    const catalog = await value<ChannelOutput<'inference.list'>>('inference.list', {
      profileId: sandboxProfile.id,
    })
    const seed = await value<{ inferenceModels: string[] }>('sandbox.seed')
    expect(catalog.models.map((model) => model.id).sort()).toEqual([...seed.inferenceModels].sort())
  })

  it('opens https links in the system browser and refuses every other scheme', async () => {
    // Whatever earlier steps opened is not this test's business.
    opened.length = 0
    for (const url of [
      'http://example.com/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'HTTPS//example.com',
      ' not a url',
    ]) {
      const refused = await failure('shell.openExternal', { url })
      expect(refused, url).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ path: ['url'], message: expect.any(String) }],
      })
    }
    expect(opened).toEqual([])
    expect(await value('shell.openExternal', { url: 'https://example.com/docs' })).toEqual({
      opened: true,
    })
    expect(opened).toEqual(['https://example.com/docs'])
    opened.length = 0
  })

  it('refuses a profile whose token the service refuses, and saves nothing', async () => {
    const profilesFile = path.join(dataDir, 'profiles.json')
    const fileBefore = readFileSync(profilesFile, 'utf8')
    const refused = await failure('profiles.add', {
      name: 'Wrong token',
      baseUrl: sandboxProfile.baseUrl,
      color: '#dc2626',
      protected: true,
      token: 'definitely-not-a-valid-token',
    })
    expect(refused.code).toBe('UNAUTHORIZED')
    expect(refused.message).toContain('refused the token (401)')
    expect(refused.details).toEqual([{ path: ['token'], message: expect.any(String) }])

    const unreachable = await failure('profiles.add', {
      name: 'Nowhere',
      baseUrl: 'http://127.0.0.1:1',
      color: '#dc2626',
      protected: false,
      token: adminToken,
    })
    expect(unreachable.code).toBe('OFFLINE')
    expect(unreachable.message).toContain('unreachable')
    expect(unreachable.details).toEqual([{ path: ['baseUrl'], message: expect.any(String) }])

    const listed = await value<ChannelOutput<'profiles.list'>>('profiles.list')
    expect(listed.profiles.map((profile) => profile.name)).toEqual(['Local sandbox'])
    expect(listed.activeId).toBe(sandboxProfile.id)
    expect(readFileSync(profilesFile, 'utf8')).toBe(fileBefore)
  })

  it('adds a profile for another service after verifying its token', async () => {
    remote = await startSandbox({ port: 0 })
    remoteProfile = await value<Profile>('profiles.add', {
      name: 'Staging',
      baseUrl: remote.url,
      color: '#16a34a',
      protected: false,
      token: remote.tokens.admin,
    })
    expect(remoteProfile).toMatchObject({
      kind: 'service',
      signedIn: true,
      tokenStorage: 'keychain',
    })
    expect(await keychainEntry(remoteProfile.id)).toBe(remote.tokens.admin)
    remoteSessions = await value<SessionList>('sessions.refresh', { profileId: remoteProfile.id })
    expect(remoteSessions.items.length).toBeGreaterThan(0)
    // Each profile sees its own cached rows only.
    const sandboxCached = await value<SessionList>('sessions.cached', {
      profileId: sandboxProfile.id,
    })
    expect(sandboxCached.items).toEqual(firstSessions.items)
  })

  it('signs a profile out and asks for a new token when the service answers 401', async () => {
    const viewer = await value<Profile>('profiles.add', {
      name: 'Staging (viewer)',
      baseUrl: remote!.url,
      color: '#0891b2',
      protected: false,
      token: remote!.tokens.viewer,
    })
    // The viewer's session ends elsewhere (another client logs it out): its token stops working.
    const ended = await fetch(`${remote!.url}/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${remote!.tokens.viewer}` },
    })
    expect(ended.status).toBe(200)
    const before = events.length
    const refused = await failure('sessions.refresh', { profileId: viewer.id })
    expect(refused.code).toBe('UNAUTHORIZED')
    expect(events.slice(before)).toContainEqual({
      event: 'auth.required',
      payload: { profileId: viewer.id, message: expect.stringContaining('401') },
    })
    expect(await outsideVault().get(viewer.id)).toBeNull()
    const listed = await value<ChannelOutput<'profiles.list'>>('profiles.list')
    expect(listed.profiles.find((profile) => profile.id === viewer.id)).toMatchObject({
      signedIn: false,
      tokenStorage: null,
    })
    expect(await failure('sessions.refresh', { profileId: viewer.id })).toMatchObject({
      code: 'NOT_SIGNED_IN',
    })
    await value('profiles.remove', { id: viewer.id })
  })

  it('keeps the cached sessions, marked offline, when the service is unreachable', async () => {
    await remote!.close()
    remote = null
    const before = events.length
    const offline = await value<SessionList>('sessions.refresh', { profileId: remoteProfile.id })
    expect(offline.offline).toBe(true)
    expect(offline.error?.code).toBe('OFFLINE')
    expect(offline.items).toEqual(remoteSessions.items)
    expect(offline.fetchedAt).toBe(remoteSessions.fetchedAt)
    expect(events.slice(before)).toContainEqual({
      event: 'connectivity.changed',
      payload: {
        profileId: remoteProfile.id,
        online: false,
        error: expect.objectContaining({ code: 'OFFLINE' }),
      },
    })
    const cached = await value<SessionList>('sessions.cached', { profileId: remoteProfile.id })
    expect(cached).toMatchObject({ offline: true, items: remoteSessions.items })
  })

  it('after a restart: cached lists are there at once, and the sandbox is back with the same token', async () => {
    await desk.close()
    desk = await openDesk()
    const cachedRemote = await value<SessionList>('sessions.cached', {
      profileId: remoteProfile.id,
    })
    expect(cachedRemote.items).toEqual(remoteSessions.items)
    expect(cachedRemote.fetchedAt).toBe(remoteSessions.fetchedAt)
    const cachedSandbox = await value<SessionList>('sessions.cached', {
      profileId: sandboxProfile.id,
    })
    expect(cachedSandbox.items).toEqual(firstSessions.items)

    // The embedded sandbox was started again with the stored admin token, on its old port.
    restartedSessions = await value<SessionList>('sessions.refresh', {
      profileId: sandboxProfile.id,
    })
    expect(restartedSessions.offline).toBe(false)
    expect(restartedSessions.items.filter((session) => session.isCurrent)).toHaveLength(1)
    const listed = await value<ChannelOutput<'profiles.list'>>('profiles.list')
    const restored = listed.profiles.find((profile) => profile.id === sandboxProfile.id)
    expect(restored).toMatchObject({ signedIn: true, baseUrl: sandboxProfile.baseUrl })
    expect(await outsideVault().get(sandboxProfile.id)).toBe(adminToken)
  })

  it('logs out: op 2, token gone from the keychain, profile signed out, activity recorded', async () => {
    const current = restartedSessions.items.find((session) => session.isCurrent)!
    expect(await keychainEntry(sandboxProfile.id)).toBe(adminToken)
    const answer = await value<ChannelOutput<'sessions.logout'>>('sessions.logout', {
      profileId: sandboxProfile.id,
    })
    expect(answer.message).toEqual(expect.any(String))
    // The sandbox (at 127.0.0.1) names an identity provider's page on another site: shown to
    // copy, never opened (logout-url-desk.test.ts has the cases that are opened).
    expect(answer.logoutUrl).toMatch(/^https:\/\//)
    expect(answer).toMatchObject({ logoutUrlTrusted: false, openedLogoutUrl: false })
    expect(opened).not.toContain(answer.logoutUrl)

    expect(await outsideVault().get(sandboxProfile.id)).toBeNull()
    expect(await keychainEntry(sandboxProfile.id)).toBeNull()
    const listed = await value<ChannelOutput<'profiles.list'>>('profiles.list')
    expect(listed.profiles.find((profile) => profile.id === sandboxProfile.id)).toMatchObject({
      signedIn: false,
      tokenStorage: null,
    })
    const [latest] = await value<ActivityEntry[]>('activity.list', { profileId: sandboxProfile.id })
    expect(latest).toMatchObject({
      operation: 'logout',
      targetId: current.id,
      outcome: 'success',
      errorCode: null,
      profileName: 'Local sandbox',
    })
    expect(await failure('sessions.refresh', { profileId: sandboxProfile.id })).toMatchObject({
      code: 'NOT_SIGNED_IN',
    })
    // The cached list stays readable for the signed-out profile.
    const cached = await value<SessionList>('sessions.cached', { profileId: sandboxProfile.id })
    expect(cached.items.length).toBeGreaterThan(0)
  })

  it('explores the sandbox again after logging out (its logged-out token restored)', async () => {
    const again = await value<Profile>('sandbox.explore')
    expect(again).toMatchObject({ id: sandboxProfile.id, signedIn: true })
    const refreshed = await value<SessionList>('sessions.refresh', { profileId: sandboxProfile.id })
    expect(refreshed.items.filter((session) => session.isCurrent)).toHaveLength(1)
  })

  it('keeps settings in settings.json; a downloads folder must be an existing, writable folder', async () => {
    const initial = await value<{ downloadsDir: string; theme: string }>('settings.get')
    expect(initial.theme).toBe('system')
    const missing = await failure('settings.update', { downloadsDir: path.join(dataDir, 'nope') })
    expect(missing).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: ['downloadsDir'], message: 'No such folder' }],
    })
    const relative = await failure('settings.update', { downloadsDir: 'relative/dir' })
    expect(relative.details).toEqual([
      { path: ['downloadsDir'], message: 'Enter an absolute path' },
    ])
    const before = events.length
    const updated = await value('settings.update', { downloadsDir: temp.dir, theme: 'dark' })
    expect(updated).toMatchObject({ downloadsDir: temp.dir, theme: 'dark' })
    expect(events.slice(before)).toContainEqual({ event: 'settings.changed', payload: updated })
    const onDisk = JSON.parse(readFileSync(path.join(dataDir, 'settings.json'), 'utf8'))
    expect(onDisk).toMatchObject({ downloadsDir: temp.dir, theme: 'dark' })
  })

  it('remembers typed ids per profile and kind, and refuses an unknown profile', async () => {
    await value('recents.remember', {
      profileId: sandboxProfile.id,
      kind: 'migration',
      value: 'm-1',
    })
    await value('recents.remember', {
      profileId: sandboxProfile.id,
      kind: 'migration',
      value: 'm-2',
    })
    expect(
      await value('recents.list', { profileId: sandboxProfile.id, kind: 'migration' }),
    ).toEqual(['m-2', 'm-1'])
    expect(await value('recents.list', { profileId: sandboxProfile.id, kind: 'node' })).toEqual([])
    const unknown = await failure('recents.list', { profileId: 'no-such-profile', kind: 'node' })
    expect(unknown.code).toBe('NOT_FOUND')
    const badKind = await failure('recents.list', {
      profileId: sandboxProfile.id,
      kind: 'Bad Kind',
    })
    expect(badKind.code).toBe('VALIDATION_ERROR')
  })

  it('never lets a token out: not in bridge results or events, not in SQLite or the profiles file', async () => {
    const tokens = [
      adminToken,
      remoteProfile && (await outsideVault().get(remoteProfile.id)),
    ].filter((token): token is string => typeof token === 'string' && token.length > 0)
    expect(tokens.length).toBe(2)
    expect(carried.length).toBeGreaterThan(20)
    const everything = carried.join('\n')
    const files = ['cache.sqlite', 'cache.sqlite-wal', 'profiles.json']
      .map((name) => path.join(dataDir, name))
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString('latin1'))
    for (const token of tokens) {
      expect(everything).not.toContain(token)
      for (const content of files) expect(content).not.toContain(token)
    }
  })

  it('without a usable keychain: refuses to store, offers session only, and explores anyway', async () => {
    // A separate process whose D-Bus address leads nowhere: libsecret decides per process.
    const script = await temp.write(
      'no-keychain.mts',
      [
        `import { createDesk } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'src/main/desk.ts')).href)}`,
        `import { createVault } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'src/main/vault/index.ts')).href)}`,
        `import { startSandbox } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'src/sandbox/index.ts')).href)}`,
        'const service = process.argv[3]',
        'const remote = await startSandbox({ port: 0 })',
        'const desk = await createDesk({ dataDir: process.argv[2], mode: "web", version: "t",',
        '  openExternal: async () => {}, vault: createVault({ service, timeoutMs: 5000 }) })',
        'const fields = { name: "Staging", baseUrl: remote.url, color: "#16a34a", protected: false,',
        '  token: remote.tokens.admin }',
        'const results = {',
        '  status: await desk.dispatch("vault.status", {}),',
        '  refused: await desk.dispatch("profiles.add", fields),',
        '  afterRefusal: await desk.dispatch("profiles.list", {}),',
        '  sessionOnly: await desk.dispatch("profiles.add", { ...fields, sessionOnly: true }),',
        '  explore: await desk.dispatch("sandbox.explore", {}),',
        '}',
        'console.log("RESULT " + JSON.stringify({ results, token: remote.tokens.admin }))',
        'await desk.close()',
        'await remote.close()',
      ].join('\n'),
    )
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/infradesk-bus' }
    const child = await run(
      path.join(repoRoot, 'node_modules', '.bin', 'tsx'),
      [script, path.join(temp.dir, 'no-keychain-data'), service],
      { env },
    )
    expect(child.code, child.stderr).toBe(0)
    const line = child.stdout.split('\n').find((text) => text.startsWith('RESULT '))
    const { results, token } = JSON.parse(line!.slice('RESULT '.length)) as {
      results: Record<string, Result<unknown>>
      token: string
    }
    expect(results['status']).toMatchObject({
      ok: true,
      value: { available: false, reason: expect.any(String), fix: expect.any(String) },
    })
    const status = (results['status'] as { value: { reason: string; fix: string } }).value
    expect(results['refused']).toMatchObject({ ok: false, error: { code: 'KEYCHAIN_UNAVAILABLE' } })
    const refusal = (results['refused'] as { error: { message: string } }).error.message
    // The message explains the problem and its fix, for the "keep for this session only" offer.
    expect(refusal).toContain(status.reason)
    expect(refusal).toContain(status.fix)
    expect(results['afterRefusal']).toEqual({ ok: true, value: { profiles: [], activeId: null } })
    expect(results['sessionOnly']).toMatchObject({
      ok: true,
      value: { name: 'Staging', signedIn: true, tokenStorage: 'session' },
    })
    expect(results['explore']).toMatchObject({
      ok: true,
      value: { kind: 'sandbox', signedIn: true, tokenStorage: 'session' },
    })
    expect(child.stdout.split(token).length).toBe(2) // only in the line the script printed itself
    expect(child.stderr).not.toContain(token)
  })
})
