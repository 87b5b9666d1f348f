import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createVault } from '../../src/main/vault'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ActivityEntry, ChannelOutput, Profile, Result } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { repoRoot } from '../support/sandbox-process'
import { run } from '../support/tools'

/*
 * The desk as the renderer meets it, through dispatch and events only, with every part real:
 * the embedded sandbox started in-process, a second sandbox standing for a remote service,
 * the OS keychain (gnome-keyring over D-Bus, checked from outside with secret-tool), the SQLite
 * cache and the profiles file in a temporary data folder, and a second desk over the same
 * folder standing for a restart of the app. Every test opens its own desk and sets up the state
 * it needs, so each runs alone (`-t`) as well as in the file.
 */

const KEYRING_HINT =
  'The desk tests need a Secret Service on D-Bus. Run them under the throwaway keyring: ' +
  '`node scripts/with-keyring.mjs npx vitest run test/main/desk.test.ts` (`npm test` does this).'

type SessionList = ChannelOutput<'sessions.refresh'>

/** What a test opened: closed after it, pass or fail. */
let harness: TestDesk | null = null
let remote: RunningSandbox | null = null
/** The links the desk of this test asked the system browser to open. */
let opened: string[] = []

/** A desk of this test's own, restoring the embedded sandbox at launch as the app does. */
async function openDesk(): Promise<TestDesk> {
  opened = []
  harness = await openTestDesk('desk', {
    requestTimeoutMs: 15_000,
    restoreSandbox: true,
    openExternal: async (url) => {
      opened.push(url)
    },
  })
  return harness
}

/** A vault of our own over the desk's keychain service, to look from outside the desk. */
function outsideVault(desk: TestDesk) {
  return createVault({ service: desk.keychainService })
}

/** What libsecret's own CLI finds in the keychain for a profile; null when nothing. */
async function keychainEntry(desk: TestDesk, profileId: string): Promise<string | null> {
  const found = await run('secret-tool', [
    'lookup',
    'service',
    desk.keychainService,
    'account',
    profileId,
  ])
  return found.code === 0 ? found.stdout : null
}

/** The embedded sandbox explored: its profile, signed in and active, and its admin token. */
async function explore(desk: TestDesk): Promise<{ profile: Profile; adminToken: string }> {
  const profile = await desk.value<Profile>('sandbox.explore')
  const adminToken = (await outsideVault(desk).get(profile.id)) ?? ''
  return { profile, adminToken }
}

/** A second sandbox standing for a remote service, stopped after the test. */
async function startRemote(): Promise<RunningSandbox> {
  remote = await startSandbox({ port: 0 })
  return remote
}

/** A profile for the remote service, with its sessions fetched (and so cached) once. */
async function addRemote(
  desk: TestDesk,
): Promise<{ remoteProfile: Profile; remoteSessions: SessionList }> {
  const service = remote ?? (await startRemote())
  const remoteProfile = await desk.addProfile(service)
  const remoteSessions = await desk.value<SessionList>('sessions.refresh', {
    profileId: remoteProfile.id,
  })
  return { remoteProfile, remoteSessions }
}

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(KEYRING_HINT)
  const status = await createVault({ service: `Infradesk-desk-test-${randomUUID()}` }).status()
  if (!status.available) throw new Error(`${KEYRING_HINT} (${status.reason})`)
})

afterEach(async () => {
  const desk = harness
  harness = null
  if (desk) {
    const { profiles } = await desk.value<ChannelOutput<'profiles.list'>>('profiles.list')
    await desk.close(profiles.map((profile) => profile.id))
  }
  await remote?.close()
  remote = null
})

describe('desk', () => {
  it('explores the embedded sandbox: a signed-in, active sandbox profile, token in the keychain', async () => {
    const desk = await openDesk()
    const sandboxProfile = await desk.value<Profile>('sandbox.explore')
    expect(sandboxProfile).toMatchObject({
      name: 'Local sandbox',
      kind: 'sandbox',
      signedIn: true,
      tokenStorage: 'keychain',
    })
    expect(sandboxProfile.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const listed = await desk.value<ChannelOutput<'profiles.list'>>('profiles.list')
    expect(listed.activeId).toBe(sandboxProfile.id)
    expect(listed.profiles).toEqual([sandboxProfile])

    const adminToken = (await outsideVault(desk).get(sandboxProfile.id)) ?? ''
    expect(adminToken.length).toBeGreaterThan(8)
    expect(await keychainEntry(desk, sandboxProfile.id)).toBe(adminToken)

    const seed = await desk.value<Record<string, unknown>>('sandbox.seed')
    expect(seed).toHaveProperty('incidents.open')
    expect(seed).toHaveProperty('certificates.all')

    // Exploring again reuses the one sandbox profile.
    const again = await desk.value<Profile>('sandbox.explore')
    expect(again.id).toBe(sandboxProfile.id)
    expect(
      (await desk.value<ChannelOutput<'profiles.list'>>('profiles.list')).profiles,
    ).toHaveLength(1)
  })

  it('refreshes the sessions from the service, one of them current, and caches them', async () => {
    const desk = await openDesk()
    const { profile } = await explore(desk)
    const before = desk.events.length
    const sessions = await desk.value<SessionList>('sessions.refresh', { profileId: profile.id })
    expect(sessions.offline).toBe(false)
    expect(sessions.error).toBeNull()
    expect(sessions.fetchedAt).toEqual(expect.any(Number))
    expect(sessions.items.length).toBeGreaterThan(1)
    expect(sessions.items.filter((session) => session.isCurrent)).toHaveLength(1)
    expect(desk.events.slice(before)).toContainEqual({
      event: 'cache.changed',
      payload: expect.objectContaining({ profileId: profile.id }),
    })
    const cached = await desk.value<SessionList>('sessions.cached', { profileId: profile.id })
    expect(cached.items).toEqual(sessions.items)
    expect(cached.fetchedAt).toBe(sessions.fetchedAt)
  })

  it('records a mutating service.call in the activity log, success and failure', async () => {
    const desk = await openDesk()
    const { profile } = await explore(desk)
    const seed = await desk.value<{ incidents: { open: string[] } }>('sandbox.seed')
    const incident = seed.incidents.open[0]!
    const input = { profileId: profile.id, operation: 'resolveIncident', params: { id: incident } }
    const resolved = await desk.value<{ data: { id?: string } }>('service.call', input)
    expect(resolved.data.id).toBe(incident)
    const conflict = await desk.failure('service.call', input)
    expect(conflict).toMatchObject({ code: 'CONFLICT', status: 409 })
    // A read is not activity.
    await desk.value('service.call', { profileId: profile.id, operation: 'listCertificates' })

    // The log lists the newest first.
    const activity = await desk.value<ActivityEntry[]>('activity.list', { profileId: profile.id })
    expect(
      activity.map((entry) => [entry.operation, entry.targetId, entry.outcome, entry.errorCode]),
    ).toEqual([
      ['resolveIncident', incident, 'error', 'CONFLICT'],
      ['resolveIncident', incident, 'success', null],
    ])
    expect(activity[0]).toMatchObject({ profileName: 'Local sandbox' })
  })

  it('lists the inference catalog (op 6)', async () => {
    const desk = await openDesk()
    const { profile } = await explore(desk)
    const catalog = await desk.value<ChannelOutput<'inference.list'>>('inference.list', {
      profileId: profile.id,
    })
    const seed = await desk.value<{ inferenceModels: string[] }>('sandbox.seed')
    expect(catalog.models.map((model) => model.id).sort()).toEqual([...seed.inferenceModels].sort())
  })

  it('opens https links in the system browser and refuses every other scheme', async () => {
    const desk = await openDesk()
    for (const url of [
      'http://example.com/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'HTTPS//example.com',
      ' not a url',
    ]) {
      const refused = await desk.failure('shell.openExternal', { url })
      expect(refused, url).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ path: ['url'], message: expect.any(String) }],
      })
    }
    expect(opened).toEqual([])
    expect(await desk.value('shell.openExternal', { url: 'https://example.com/docs' })).toEqual({
      opened: true,
    })
    expect(opened).toEqual(['https://example.com/docs'])
  })

  it('refuses a profile whose token the service refuses, and saves nothing', async () => {
    const desk = await openDesk()
    const { profile: sandboxProfile, adminToken } = await explore(desk)
    const profilesFile = path.join(desk.dataDir, 'profiles.json')
    const fileBefore = readFileSync(profilesFile, 'utf8')
    const refused = await desk.failure('profiles.add', {
      name: 'Wrong token',
      baseUrl: sandboxProfile.baseUrl,
      color: '#dc2626',
      protected: true,
      token: 'definitely-not-a-valid-token',
    })
    expect(refused.code).toBe('UNAUTHORIZED')
    expect(refused.message).toContain('refused the token (401)')
    expect(refused.details).toEqual([{ path: ['token'], message: expect.any(String) }])

    const unreachable = await desk.failure('profiles.add', {
      name: 'Nowhere',
      baseUrl: 'http://127.0.0.1:1',
      color: '#dc2626',
      protected: false,
      token: adminToken,
    })
    expect(unreachable.code).toBe('OFFLINE')
    expect(unreachable.message).toContain('unreachable')
    expect(unreachable.details).toEqual([{ path: ['baseUrl'], message: expect.any(String) }])

    const listed = await desk.value<ChannelOutput<'profiles.list'>>('profiles.list')
    expect(listed.profiles.map((profile) => profile.name)).toEqual(['Local sandbox'])
    expect(listed.activeId).toBe(sandboxProfile.id)
    expect(readFileSync(profilesFile, 'utf8')).toBe(fileBefore)
  })

  it('adds a profile for another service after verifying its token', async () => {
    const desk = await openDesk()
    const { profile: sandboxProfile } = await explore(desk)
    const sandboxSessions = await desk.value<SessionList>('sessions.refresh', {
      profileId: sandboxProfile.id,
    })
    const service = await startRemote()
    const remoteProfile = await desk.addProfile(service)
    expect(remoteProfile).toMatchObject({
      kind: 'service',
      signedIn: true,
      tokenStorage: 'keychain',
    })
    expect(await keychainEntry(desk, remoteProfile.id)).toBe(service.tokens.admin)
    const remoteSessions = await desk.value<SessionList>('sessions.refresh', {
      profileId: remoteProfile.id,
    })
    expect(remoteSessions.items.length).toBeGreaterThan(0)
    // Each profile sees its own cached rows only.
    const sandboxCached = await desk.value<SessionList>('sessions.cached', {
      profileId: sandboxProfile.id,
    })
    expect(sandboxCached.items).toEqual(sandboxSessions.items)
  })

  it('signs a profile out and asks for a new token when the service answers 401', async () => {
    const desk = await openDesk()
    const service = await startRemote()
    const viewer = await desk.addProfile(service, {
      name: 'Staging (viewer)',
      color: '#0891b2',
      token: service.tokens.viewer,
    })
    // The viewer's session ends elsewhere (another client logs it out): its token stops working.
    const ended = await fetch(`${service.url}/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.tokens.viewer}` },
    })
    expect(ended.status).toBe(200)
    const before = desk.events.length
    const refused = await desk.failure('sessions.refresh', { profileId: viewer.id })
    expect(refused.code).toBe('UNAUTHORIZED')
    expect(desk.events.slice(before)).toContainEqual({
      event: 'auth.required',
      payload: { profileId: viewer.id, message: expect.stringContaining('401') },
    })
    expect(await outsideVault(desk).get(viewer.id)).toBeNull()
    const listed = await desk.value<ChannelOutput<'profiles.list'>>('profiles.list')
    expect(listed.profiles.find((profile) => profile.id === viewer.id)).toMatchObject({
      signedIn: false,
      tokenStorage: null,
    })
    expect(await desk.failure('sessions.refresh', { profileId: viewer.id })).toMatchObject({
      code: 'NOT_SIGNED_IN',
    })
  })

  it('keeps the cached sessions, marked offline, when the service is unreachable', async () => {
    const desk = await openDesk()
    const { remoteProfile, remoteSessions } = await addRemote(desk)
    await remote!.close()
    remote = null
    const before = desk.events.length
    const offline = await desk.value<SessionList>('sessions.refresh', {
      profileId: remoteProfile.id,
    })
    expect(offline.offline).toBe(true)
    expect(offline.error?.code).toBe('OFFLINE')
    expect(offline.items).toEqual(remoteSessions.items)
    expect(offline.fetchedAt).toBe(remoteSessions.fetchedAt)
    expect(desk.events.slice(before)).toContainEqual({
      event: 'connectivity.changed',
      payload: {
        profileId: remoteProfile.id,
        online: false,
        error: expect.objectContaining({ code: 'OFFLINE' }),
        checkedAt: expect.any(Number),
        since: expect.any(Number),
      },
    })
    const cached = await desk.value<SessionList>('sessions.cached', { profileId: remoteProfile.id })
    expect(cached).toMatchObject({ offline: true, items: remoteSessions.items })
  })

  it('after a restart: cached lists are there at once, and the sandbox is back with the same token', async () => {
    const desk = await openDesk()
    const { profile: sandboxProfile, adminToken } = await explore(desk)
    const sandboxSessions = await desk.value<SessionList>('sessions.refresh', {
      profileId: sandboxProfile.id,
    })
    const { remoteProfile, remoteSessions } = await addRemote(desk)
    // The remote service is gone by the time the app starts again.
    await remote!.close()
    remote = null

    await desk.reopen()
    const cachedRemote = await desk.value<SessionList>('sessions.cached', {
      profileId: remoteProfile.id,
    })
    expect(cachedRemote.items).toEqual(remoteSessions.items)
    expect(cachedRemote.fetchedAt).toBe(remoteSessions.fetchedAt)
    const cachedSandbox = await desk.value<SessionList>('sessions.cached', {
      profileId: sandboxProfile.id,
    })
    expect(cachedSandbox.items).toEqual(sandboxSessions.items)

    // The embedded sandbox was started again with the stored admin token, on its old port.
    const restartedSessions = await desk.value<SessionList>('sessions.refresh', {
      profileId: sandboxProfile.id,
    })
    expect(restartedSessions.offline).toBe(false)
    expect(restartedSessions.items.filter((session) => session.isCurrent)).toHaveLength(1)
    const listed = await desk.value<ChannelOutput<'profiles.list'>>('profiles.list')
    const restored = listed.profiles.find((profile) => profile.id === sandboxProfile.id)
    expect(restored).toMatchObject({ signedIn: true, baseUrl: sandboxProfile.baseUrl })
    expect(await outsideVault(desk).get(sandboxProfile.id)).toBe(adminToken)
  })

  it('logs out: op 2, token gone from the keychain, profile signed out, activity recorded', async () => {
    const desk = await openDesk()
    const { profile: sandboxProfile, adminToken } = await explore(desk)
    const sessions = await desk.value<SessionList>('sessions.refresh', {
      profileId: sandboxProfile.id,
    })
    const current = sessions.items.find((session) => session.isCurrent)!
    expect(await keychainEntry(desk, sandboxProfile.id)).toBe(adminToken)
    const answer = await desk.value<ChannelOutput<'sessions.logout'>>('sessions.logout', {
      profileId: sandboxProfile.id,
    })
    expect(answer.message).toEqual(expect.any(String))
    // The sandbox (at 127.0.0.1) names an identity provider's page on another site: shown to
    // copy, never opened (logout-url-desk.test.ts has the cases that are opened).
    expect(answer.logoutUrl).toMatch(/^https:\/\//)
    expect(answer).toMatchObject({ logoutUrlTrusted: false, openedLogoutUrl: false })
    expect(opened).not.toContain(answer.logoutUrl)

    expect(await outsideVault(desk).get(sandboxProfile.id)).toBeNull()
    expect(await keychainEntry(desk, sandboxProfile.id)).toBeNull()
    const listed = await desk.value<ChannelOutput<'profiles.list'>>('profiles.list')
    expect(listed.profiles.find((profile) => profile.id === sandboxProfile.id)).toMatchObject({
      signedIn: false,
      tokenStorage: null,
    })
    const [latest] = await desk.value<ActivityEntry[]>('activity.list', {
      profileId: sandboxProfile.id,
    })
    expect(latest).toMatchObject({
      operation: 'logout',
      targetId: current.id,
      outcome: 'success',
      errorCode: null,
      profileName: 'Local sandbox',
    })
    expect(await desk.failure('sessions.refresh', { profileId: sandboxProfile.id })).toMatchObject({
      code: 'NOT_SIGNED_IN',
    })
    // The cached list stays readable for the signed-out profile.
    const cached = await desk.value<SessionList>('sessions.cached', {
      profileId: sandboxProfile.id,
    })
    expect(cached.items.length).toBeGreaterThan(0)
  })

  it('explores the sandbox again after logging out (its logged-out token restored)', async () => {
    const desk = await openDesk()
    const { profile: sandboxProfile } = await explore(desk)
    // A change made before logging out: signing in again must not wipe it.
    const seed = await desk.value<{ incidents: { open: string[] } }>('sandbox.seed')
    const [incidentId] = seed.incidents.open
    await desk.value('statusPage.resolveIncident', { profileId: sandboxProfile.id, incidentId })
    await desk.value('sessions.logout', { profileId: sandboxProfile.id })
    expect(await outsideVault(desk).get(sandboxProfile.id)).toBeNull()

    const again = await desk.value<Profile>('sandbox.explore')
    expect(again).toMatchObject({ id: sandboxProfile.id, signedIn: true })
    const refreshed = await desk.value<SessionList>('sessions.refresh', {
      profileId: sandboxProfile.id,
    })
    expect(refreshed.items.filter((session) => session.isCurrent)).toHaveLength(1)
    const page = await desk.value<ChannelOutput<'statusPage.refresh'>>('statusPage.refresh', {
      profileId: sandboxProfile.id,
    })
    const incident = page.items.find((item) => item.id === incidentId)
    expect(incident?.['status']).toBe('resolved')
  })

  it('keeps settings in settings.json; a downloads folder must be an existing, writable folder', async () => {
    const desk = await openDesk()
    const { dataDir, temp } = desk
    const initial = await desk.value<{ downloadsDir: string; theme: string }>('settings.get')
    expect(initial.theme).toBe('system')
    const missing = await desk.failure('settings.update', {
      downloadsDir: path.join(dataDir, 'nope'),
    })
    expect(missing).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: ['downloadsDir'], message: 'No such folder' }],
    })
    const relative = await desk.failure('settings.update', { downloadsDir: 'relative/dir' })
    expect(relative.details).toEqual([
      { path: ['downloadsDir'], message: 'Enter an absolute path' },
    ])
    const before = desk.events.length
    const updated = await desk.value('settings.update', { downloadsDir: temp.dir, theme: 'dark' })
    expect(updated).toMatchObject({ downloadsDir: temp.dir, theme: 'dark' })
    expect(desk.events.slice(before)).toContainEqual({
      event: 'settings.changed',
      payload: updated,
    })
    const onDisk = JSON.parse(readFileSync(path.join(dataDir, 'settings.json'), 'utf8'))
    expect(onDisk).toMatchObject({ downloadsDir: temp.dir, theme: 'dark' })
  })

  it('remembers typed ids per profile and kind, and refuses an unknown profile', async () => {
    const desk = await openDesk()
    const { profile } = await explore(desk)
    for (const value of ['m-1', 'm-2']) {
      await desk.value('recents.remember', { profileId: profile.id, kind: 'migration', value })
    }
    expect(await desk.value('recents.list', { profileId: profile.id, kind: 'migration' })).toEqual([
      'm-2',
      'm-1',
    ])
    expect(await desk.value('recents.list', { profileId: profile.id, kind: 'node' })).toEqual([])
    const unknown = await desk.failure('recents.list', {
      profileId: 'no-such-profile',
      kind: 'node',
    })
    expect(unknown.code).toBe('NOT_FOUND')
    const badKind = await desk.failure('recents.list', { profileId: profile.id, kind: 'Bad Kind' })
    expect(badKind.code).toBe('VALIDATION_ERROR')
  })

  it('never lets a token out: not in bridge results or events, not in SQLite or the profiles file', async () => {
    // The traffic of the story the other tests tell one piece each: two profiles, their
    // sessions, a write, a restart, a logout.
    const desk = await openDesk()
    const { profile: sandboxProfile, adminToken } = await explore(desk)
    await desk.value('sessions.refresh', { profileId: sandboxProfile.id })
    await desk.value('sessions.cached', { profileId: sandboxProfile.id })
    const seed = await desk.value<{ incidents: { open: string[] } }>('sandbox.seed')
    const incident = { operation: 'resolveIncident', params: { id: seed.incidents.open[0] } }
    await desk.value('service.call', { profileId: sandboxProfile.id, ...incident })
    await desk.failure('service.call', { profileId: sandboxProfile.id, ...incident })
    await desk.value('activity.list', { profileId: sandboxProfile.id })
    const { remoteProfile } = await addRemote(desk)
    const remoteToken = await outsideVault(desk).get(remoteProfile.id)
    await desk.value('sessions.cached', { profileId: remoteProfile.id })
    await desk.reopen()
    await desk.value('profiles.list')
    await desk.value('sessions.refresh', { profileId: sandboxProfile.id })
    await desk.value('sessions.logout', { profileId: sandboxProfile.id })
    await desk.value('sandbox.explore')

    const tokens = [adminToken, remoteToken].filter(
      (token): token is string => typeof token === 'string' && token.length > 0,
    )
    expect(tokens.length).toBe(2)
    expect(desk.carried.length).toBeGreaterThan(20)
    const everything = desk.carried.join('\n')
    const files = ['cache.sqlite', 'cache.sqlite-wal', 'profiles.json']
      .map((name) => path.join(desk.dataDir, name))
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString('latin1'))
    for (const token of tokens) {
      expect(everything).not.toContain(token)
      for (const content of files) expect(content).not.toContain(token)
    }
  })

  it('without a usable keychain: refuses to store, offers session only, and explores anyway', async () => {
    const { temp } = await openDesk()
    const service = `Infradesk-desk-test-${randomUUID()}`
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
    expect(results['afterRefusal']).toEqual({
      ok: true,
      value: { profiles: [], activeId: null, connectivity: {} },
    })
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
