import type { Page } from '@playwright/test'
import type { ChannelName, ChannelOutput } from '../../../src/shared/bridge'
import { channels, resultSchema } from '../../../src/shared/bridge'
import { invokePath } from '../../../src/shared/bridge/web-protocol'

/**
 * Calls the bridge from inside the page, exactly as the renderer's web transport does (same
 * origin, the launch cookie), to check what the main process holds without going around it.
 */
export async function bridgeCall<C extends ChannelName>(
  page: Page,
  channel: C,
  input: unknown = {},
): Promise<ChannelOutput<C>> {
  const raw = await page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return (await response.json()) as unknown
    },
    { path: invokePath(channel), body: input },
  )
  const result = resultSchema.parse(raw)
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.code} ${result.error.message}`)
  return channels[channel].output.parse(result.value) as ChannelOutput<C>
}
