import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { APP_ERROR_CODES } from '../shared/bridge'
import type { ChannelInput, ChannelName, ChannelOutput, Profile, Result } from '../shared/bridge'
import type { Desk } from '../main/desk'
import type { DesktopIntegration } from '../main/features/context'
import type { KeytarLike } from '../main/vault'
import { defaultDataDir } from '../main/web/options'
import { CliError, EXIT } from './exit-codes'

/*
 * The desk (src/main/desk.ts: profiles, keychain, settings, cache, client, network) opened for
 * one command, and the profile the command works as. Commands call the desk's bridge channels,
 * as the window does, so the guards, checks and writers are the app's own.
 *
 * `--profile NAME`: the app's data folder and its keychain (service "Infradesk").
 * `--url URL`: the token from INFRADESK_TOKEN, held in this process's memory only, under a
 * throwaway profile in a throwaway data folder, removed again at the end: scripts and CI have
 * no keychain, and nothing of theirs lands in the app's folder.
 */

export const TOKEN_ENV = 'INFRADESK_TOKEN'

/** How long Ctrl-C waits for the desk's calls to end before the process ends without them. */
const INTERRUPT_GRACE_MS = 3000

export interface ConnectionOptions {
  profile?: string | undefined
  url?: string | undefined
  dataDir?: string | undefined
  /** PEM file of CA certificates a `--url` service is trusted by (a private CA). */
  caFile?: string | undefined
}

/**
 * Answers the desk's save dialog with the path the command line named (`--out`): the desk then
 * writes there with the app's atomic writer, replacing a file of that name as the dialog would.
 */
class TerminalIntegration implements DesktopIntegration {
  saveTo: string | null = null

  async chooseSavePath(): Promise<string | null> {
    return this.saveTo
  }
  async chooseOpenFile(): Promise<string | null> {
    return null
  }
  showItemInFolder(): void {}
  async openPath(): Promise<void> {}
  notify(): void {}
}

/** A keychain of this process's memory: `--url` runs keep their token nowhere else. */
function memoryKeychain(): KeytarLike {
  const items = new Map<string, string>()
  const key = (service: string, account: string) => `${service}\u0000${account}`
  return {
    getPassword: async (service, account) => items.get(key(service, account)) ?? null,
    setPassword: async (service, account, password) => {
      items.set(key(service, account), password)
    },
    deletePassword: async (service, account) => items.delete(key(service, account)),
  }
}

export class DeskSession {
  private profileId: string | null = null
  private resolved: Promise<Profile> | null = null
  /** What a command has running that an interrupt must stop, each saying what it left undone. */
  private readonly running = new Set<() => Promise<string | null>>()
  /** The desk's calls under way (an interrupt closes the desk only once none is). */
  private readonly calls = new Map<Promise<Result<unknown>>, ChannelName>()
  /** An interrupt is ending the command: its work asks nothing more of the desk. */
  private stopping = false

  private constructor(
    readonly desk: Desk,
    private readonly terminal: TerminalIntegration,
    private readonly connection: ConnectionOptions,
    private readonly throwawayFolder: string | null,
  ) {}

  /** Opens the desk over the app's data folder, or over a throwaway one for `--url`. */
  static async open(connection: ConnectionOptions, version: string): Promise<DeskSession> {
    if (connection.profile !== undefined && connection.url !== undefined) {
      throw CliError.usage('give either --profile NAME or --url URL, not both')
    }
    const throwaway =
      connection.url === undefined ? null : await mkdtemp(path.join(tmpdir(), 'infradesk-cli-'))
    const dataDir = throwaway ?? connection.dataDir ?? defaultDataDir()
    const terminal = new TerminalIntegration()
    // Imported here: loading the core (SQLite, zod, the handlers) is most of the start's cost,
    // and `--help`, `--version` and `completion` do not need it.
    const { createDesk } = await import('../main/desk')
    const { createVault } = await import('../main/vault')
    try {
      const desk = await createDesk({
        dataDir,
        mode: 'web',
        openExternal: async () => undefined,
        version,
        restoreSandbox: false,
        desktop: terminal,
        // The app may be running: its unfinished transfers are its own, not interrupted.
        markInterruptedTransfers: false,
        // A command runs and ends: the app's schedule (and its notifications) are not its job.
        backgroundRefresh: false,
        ...(throwaway === null ? {} : { vault: createVault({ backend: memoryKeychain() }) }),
      })
      return new DeskSession(desk, terminal, connection, throwaway)
    } catch (error) {
      if (throwaway !== null) await rm(throwaway, { recursive: true, force: true })
      throw error
    }
  }

  /** One bridge call; a failure is thrown as a CliError with its exit code. */
  async call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
    // The work's next step (a list's next page) after Ctrl-C: not asked, the work ends here.
    if (this.stopping) throw new CliError('Interrupted', EXIT.other)
    return this.callDesk(channel, input)
  }

  /** A call of the desk's, also while an interrupt stops the work (its own clean-up calls). */
  private async callDesk<C extends ChannelName>(
    channel: C,
    input: ChannelInput<C>,
  ): Promise<ChannelOutput<C>> {
    const dispatched = this.desk.dispatch(channel, input)
    this.calls.set(dispatched, channel)
    const result = await dispatched.finally(() => this.calls.delete(dispatched))
    if (!result.ok) throw CliError.fromBridge(result.error)
    return result.value as ChannelOutput<C>
  }

  /** The next save the desk asks for goes to `file` (resolved against the working folder). */
  saveNextTo(file: string): void {
    this.terminal.saveTo = path.resolve(file)
  }

  /** The profile this command works as: `--profile` looked up, or `--url` signed in (once). */
  async profile(): Promise<Profile> {
    this.resolved ??= this.resolveProfile()
    return this.resolved
  }

  private async resolveProfile(): Promise<Profile> {
    if (this.connection.url !== undefined) return this.signInWithEnvironmentToken()
    const wanted = this.connection.profile
    if (wanted === undefined) {
      throw CliError.usage(
        `name a stored profile with --profile NAME, or use --url URL with ${TOKEN_ENV}`,
      )
    }
    const found = await this.findProfile(wanted)
    this.profileId = found.id
    // Saved with --check-later: its token is checked before the command's own work (as the
    // app's Connect does), so a token the service refuses fails here, plainly.
    if (found.unverified === true) return this.call('profiles.connect', { id: found.id })
    return found
  }

  async profileIdToUse(): Promise<string> {
    return this.profileId ?? (await this.profile()).id
  }

  /** A stored profile by name (case-insensitive) or id; exit 4 when there is none. */
  async findProfile(nameOrId: string): Promise<Profile> {
    const { profiles } = await this.call('profiles.list', {})
    const wanted = nameOrId.trim().toLowerCase()
    const found =
      profiles.find((profile) => profile.id === nameOrId) ??
      profiles.find((profile) => profile.name.toLowerCase() === wanted)
    if (found === undefined) {
      const names = profiles.map((profile) => profile.name).join(', ') || 'none'
      throw new CliError(`No profile named "${nameOrId}" (profiles: ${names})`, EXIT.notFound)
    }
    return found
  }

  private async signInWithEnvironmentToken(): Promise<Profile> {
    const token = process.env[TOKEN_ENV]?.trim() ?? ''
    if (token === '') {
      throw new CliError(
        `--url needs the token in the environment variable ${TOKEN_ENV}`,
        EXIT.auth,
      )
    }
    const trustedCas = await readCaFile(this.connection.caFile)
    // Verified with the service first, as the app's "Add profile" does (401 exits 3).
    const profile = await this.call('profiles.add', {
      name: 'infradesk-cli',
      baseUrl: this.connection.url ?? '',
      color: '#2563eb',
      protected: false,
      token,
      sessionOnly: true,
      ...(trustedCas === undefined ? {} : { trustedCas }),
    })
    this.profileId = profile.id
    return profile
  }

  /**
   * Registers work an interrupt must stop while `work` runs (a statement's request): `stop`
   * cancels it and says what the user should know, or null.
   */
  async whileRunning<T>(stop: () => Promise<string | null>, work: () => Promise<T>): Promise<T> {
    this.running.add(stop)
    try {
      return await work()
    } finally {
      this.running.delete(stop)
    }
  }

  /**
   * Ctrl-C: what the command has running is stopped, the desk's requests to the service ended
   * (a list's walk stops at the page it waits for and asks no next one), every download it
   * started cancelled (its temporary file removed), the desk closed (its cache checked and
   * marked clean), a `--url` run's throwaway folder removed. Resolves with what was left undone,
   * in words. A call that does not end within the grace leaves the desk open: closing it under
   * a call fails that call with a stack trace, and the process ends next anyway (the cache is
   * then checked at the next open, as after any unclean end).
   */
  async interrupt(): Promise<string[]> {
    const said: string[] = []
    for (const stop of this.running) {
      const words = await stop().catch(() => null)
      if (words !== null) said.push(words)
    }
    this.stopping = true
    // Downloads are cancelled before the desk's requests are ended: a download's request ended
    // under it would end it as a failure, not as the cancellation said below.
    let cancelled = await this.cancelTransfers()
    // A download still being asked of the service (its file begun, no transfer yet) ends with
    // its request, below, as CANCELLED: its file is then removed (features/volumes.ts).
    const exports = [...this.calls].flatMap(([call, channel]) =>
      channel === 'volumes.export' ? [call] : [],
    )
    this.desk.stopRequests()
    // A call not waiting on the service (a download being started) is given a moment: a
    // download started meanwhile is then cancelled too.
    const settled = Promise.allSettled(this.calls.keys()).then(() => true)
    const grace = new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(false), INTERRUPT_GRACE_MS).unref(),
    )
    const callsEnded = await Promise.race([settled, grace])
    cancelled = (await this.cancelTransfers()) || cancelled
    if (callsEnded) {
      for (const ended of await Promise.all(exports)) {
        if (!ended.ok && ended.error.code === APP_ERROR_CODES.CANCELLED) cancelled = true
      }
    }
    if (cancelled) said.push('the download was cancelled and its partial file removed')
    if (callsEnded) await this.desk.close()
    await this.removeThrowaway()
    return said
  }

  /** Cancels every running download and waits for each to end (its temporary file removed). */
  private async cancelTransfers(): Promise<boolean> {
    const active = await this.callDesk('transfers.active', {}).catch(() => [])
    const cancelled = new Set<string>()
    const finished = new Set<string>()
    let check = (): void => undefined
    const stop = this.desk.onEvent((event, payload) => {
      if (event !== 'transfers.finished') return
      finished.add((payload as { id: string }).id)
      check()
    })
    try {
      for (const { transferId } of active) {
        const answer = await this.callDesk('transfers.cancel', { transferId }).catch(() => null)
        if (answer?.cancelled === true) cancelled.add(transferId)
      }
      // Each cancelled download ends (finished) once its temporary file is removed.
      await new Promise<void>((resolve) => {
        check = () => {
          if ([...cancelled].every((id) => finished.has(id))) resolve()
        }
        check()
      })
      return cancelled.size > 0
    } finally {
      stop()
    }
  }

  private async removeThrowaway(): Promise<void> {
    if (this.throwawayFolder !== null) {
      await rm(this.throwawayFolder, { recursive: true, force: true })
    }
  }

  async close(): Promise<void> {
    await this.desk.close()
    await this.removeThrowaway()
  }
}

/** The PEM certificates of `--ca-file`, one string each, as the profile form takes them. */
export async function readCaFile(file: string | undefined): Promise<string[] | undefined> {
  if (file === undefined) return undefined
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, EXIT.usage)
  })
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)
  if (blocks === null) throw CliError.usage(`${file} holds no PEM certificate`)
  return blocks.map((block) => `${block}\n`)
}
