import type { Command } from 'commander'
import type { Profile } from '../../shared/bridge'
import { isConnectivityError } from '../../shared/bridge/connectivity'
import { CliError } from '../exit-codes'
import type { Column } from '../output'
import { note, writeJson, writeRows } from '../output'
import { readCaFile } from '../session'
import { readTokenFromStdin } from '../token-input'
import type { CommandRunner } from './runner'

/* `infradesk profiles list|add|remove`: the app's own profiles, in the app's data folder. */

interface AddOptions {
  protected?: boolean
  color: string
  sessionOnly?: boolean
  checkLater?: boolean
  json?: boolean
}

const PROFILE_COLUMNS: readonly Column<Profile>[] = [
  { name: 'NAME', value: (profile) => profile.name },
  { name: 'URL', value: (profile) => profile.baseUrl },
  { name: 'PROTECTED', value: (profile) => (profile.protected ? 'yes' : 'no') },
  { name: 'SIGNED IN', value: signedInText },
  { name: 'TOKEN', value: (profile) => profile.tokenStorage ?? '-' },
  { name: 'ID', value: (profile) => profile.id },
]

/** "not verified" for a profile saved with --check-later whose token no service has checked. */
function signedInText(profile: Profile): string {
  if (!profile.signedIn) return 'no'
  return profile.unverified === true ? 'not verified' : 'yes'
}

/** The app's words for "Save anyway, check later" (ProfileForm), said the same here. */
const CHECK_LATER_HELP =
  'save anyway, check later: when the service cannot be reached (offline, timed out), the ' +
  'profile and its token are saved unchecked, shown as not verified until a command working ' +
  'as it reaches the service (a token the service refuses is never saved)'

/** An unreachable service's failure names --check-later, as the app offers its button there. */
function offerCheckLater(error: unknown): never {
  if (error instanceof CliError && isConnectivityError(error.bridgeError)) {
    throw new CliError(
      `${error.message} (--check-later saves the profile anyway and checks it later)`,
      error.exitCode,
      error.bridgeError,
    )
  }
  throw error
}

export function profileCommands(program: Command, run: CommandRunner): void {
  const profiles = program
    .command('profiles')
    .description('the stored profiles (as the app keeps them)')

  profiles
    .command('list')
    .description('list the stored profiles')
    .option('--json', 'print the profiles as JSON')
    .action((options: { json?: boolean }, command: Command) =>
      run(command, { needsProfile: false }, async (session) => {
        const { profiles: listed } = await session.call('profiles.list', {})
        if (options.json === true) writeJson(listed)
        else writeRows('table', PROFILE_COLUMNS, listed)
      }),
    )

  profiles
    .command('add')
    .description(
      'add a profile; the token is read from standard input and verified with the service first',
    )
    .argument('<name>', 'the profile name')
    .option('--protected', 'a production environment: SQL writes need --confirm-write')
    .option('--color <hex>', 'the colour the app shows it in', '#2563eb')
    .option('--session-only', 'keep the token in memory only (it is gone when the command ends)')
    .option('--check-later', CHECK_LATER_HELP)
    .option('--json', 'print the new profile as JSON')
    .addHelpText('after', '\nThe base URL is given with --url; the token never as an argument.')
    .action((name: string, options: AddOptions, command: Command) =>
      run(command, { needsProfile: false, ownsUrl: true }, async (session, globals) => {
        if (globals.url === undefined) throw CliError.usage('profiles add needs --url URL')
        const token = await readTokenFromStdin()
        const trustedCas = await readCaFile(globals.caFile)
        const profile = await session
          .call('profiles.add', {
            name,
            baseUrl: globals.url,
            color: options.color,
            protected: options.protected === true,
            token,
            sessionOnly: options.sessionOnly === true,
            checkLater: options.checkLater === true,
            ...(trustedCas === undefined ? {} : { trustedCas }),
          })
          .catch(offerCheckLater)
        if (options.json === true) writeJson(profile)
        else
          note(`Added "${profile.name}" (${profile.baseUrl}); token in the ${profile.tokenStorage}`)
        if (profile.unverified === true) {
          note(
            'Not verified yet: the service could not be reached, so the token was saved ' +
              'unchecked. It is checked by the next command that works as this profile.',
          )
        }
        // The token authenticated but may not do everything (a scope it lacks, an endpoint
        // kept for browser sessions): said, not failed.
        if (profile.tokenLimitation !== null) note(`Note: ${profile.tokenLimitation}`)
      }),
    )

  profiles
    .command('remove')
    .description('remove a profile and its token from the keychain')
    .argument('<name>', 'the profile name or id')
    .option('--json', 'print what was removed as JSON')
    .action((name: string, options: { json?: boolean }, command: Command) =>
      run(command, { needsProfile: false }, async (session) => {
        const profile = await session.findProfile(name)
        await session.call('profiles.remove', { id: profile.id })
        if (options.json === true) writeJson({ removed: profile.id, name: profile.name })
        else note(`Removed "${profile.name}"`)
      }),
    )
}
