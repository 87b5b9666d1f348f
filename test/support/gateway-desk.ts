/*
 * A desk signed in to a sandbox of the gateway flavour (a real deployment's shapes): what every
 * gateway-operations test file starts from. Run under scripts/with-keyring.mjs.
 */
import { startSandbox, type RunningSandbox } from '../../src/sandbox'
import type { Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from './desk'

export interface GatewayDesk {
  sandbox: RunningSandbox
  desk: TestDesk
  profile: Profile
  /** Signs out, removes the desk's folder and keychain items, stops the sandbox. */
  close(): Promise<void>
}

/** Starts a gateway sandbox and a desk (`name` names its temporary folder) with one profile. */
export async function openGatewayDesk(name: string): Promise<GatewayDesk> {
  const sandbox = await startSandbox({ port: 0, flavor: 'gateway' })
  let desk: TestDesk | undefined
  try {
    desk = await openTestDesk(name, { requestTimeoutMs: 30_000 })
    const opened = desk
    const profile = await opened.addProfile(
      { url: sandbox.url, tokens: sandbox.tokens },
      { name: 'Gateway', sessionOnly: true },
    )
    return {
      sandbox,
      desk: opened,
      profile,
      close: async () => {
        await opened.close([profile.id])
        await sandbox.close()
      },
    }
  } catch (error) {
    // Half-opened: leave no desk folder or sandbox behind the failure.
    await desk?.close()
    await sandbox.close()
    throw error
  }
}
