import type { Command } from 'commander'
import type { Profile } from '../../shared/bridge'
import { CliError } from '../exit-codes'
import type { Column } from '../output'
import { note, writeJson, writeRows } from '../output'
import { readCaFile } from '../session'
import { readTokenFromStdin } from '../token-input'
import type { CommandRunner } from './runner'

/* `infradesk profiles list|add|remove`: the app's own profiles, in the app's data folder. */

const PROFILE_COLUMNS: readonly Column<Profile>[] = [
  { name: 'NAME', value: (profile) => profile.name },
  { name: 'URL', value: (profile) => profile.baseUrl },
  { name: 'PROTECTED', value: (profile) => (profile.protected ? 'yes' : 'no') },
  { name: 'SIGNED IN', value: (profile) => (profile.signedIn ? 'yes' : 'no') },
  { name: 'TOKEN', value: (profile) => profile.tokenStorage ?? '-' },
  { name: 'ID', value: (profile) => profile.id },
]

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
    .option('--json', 'print the new profile as JSON')
    .addHelpText('after', '\nThe base URL is given with --url; the token never as an argument.')
    .action(
      (
        name: string,
        options: { protected?: boolean; color: string; sessionOnly?: boolean; json?: boolean },
        command: Command,
      ) =>
        run(command, { needsProfile: false, ownsUrl: true }, async (session, globals) => {
          if (globals.url === undefined) throw CliError.usage('profiles add needs --url URL')
          const token = await readTokenFromStdin()
          const trustedCas = await readCaFile(globals.caFile)
          const profile = await session.call('profiles.add', {
            name,
            baseUrl: globals.url,
            color: options.color,
            protected: options.protected === true,
            token,
            sessionOnly: options.sessionOnly === true,
            ...(trustedCas === undefined ? {} : { trustedCas }),
          })
          if (options.json === true) writeJson(profile)
          else
            note(
              `Added "${profile.name}" (${profile.baseUrl}); token in the ${profile.tokenStorage}`,
            )
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
