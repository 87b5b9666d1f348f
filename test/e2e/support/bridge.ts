import type { Page } from '@playwright/test'
import type { ChannelName, ChannelOutput } from '../../../src/shared/bridge'
import { channels, resultSchema } from '../../../src/shared/bridge'
import {
  invokePath,
  SECRET_HEADER,
  SECRET_STORAGE_KEY,
  WEB_EVENTS_PATH,
} from '../../../src/shared/bridge/web-protocol'

/**
 * The launch secret the page holds (its web transport took it from the address into
 * sessionStorage). Read with a string expression: this file is type-checked without the DOM.
 */
export async function pageSecret(page: Page): Promise<string> {
  const secret = await page.evaluate<string | null>(
    `sessionStorage.getItem(${JSON.stringify(SECRET_STORAGE_KEY)})`,
  )
  if (!secret) throw new Error('The page holds no launch secret: was it opened at app.url?')
  return secret
}

/**
 * Calls the bridge from inside the page, exactly as the renderer's web transport does (same
 * origin, the launch secret in its header), to check what the main process holds without
 * going around it.
 */
export async function bridgeCall<C extends ChannelName>(
  page: Page,
  channel: C,
  input: unknown = {},
): Promise<ChannelOutput<C>> {
  const raw = await page.evaluate(
    async ({ path, body, headers }) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
      return (await response.json()) as unknown
    },
    {
      path: invokePath(channel),
      body: input,
      headers: { [SECRET_HEADER]: await pageSecret(page) },
    },
  )
  const result = resultSchema.parse(raw)
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.code} ${result.error.message}`)
  return channels[channel].output.parse(result.value) as ChannelOutput<C>
}

/**
 * A page-side script that records every frame of a second event stream in `window[global]`,
 * read as the web transport reads it (fetch with the secret header; EventSource cannot send
 * one). Given as a string: it only makes sense in the page.
 */
export function recordEventFramesScript(global: string): string {
  return `(() => {
    window[${JSON.stringify(global)}] = []
    const frames = window[${JSON.stringify(global)}]
    const secret = sessionStorage.getItem(${JSON.stringify(SECRET_STORAGE_KEY)})
    void (async () => {
      const response = await fetch(${JSON.stringify(WEB_EVENTS_PATH)}, {
        headers: { ${JSON.stringify(SECRET_HEADER)}: secret },
      })
      const reader = response.body.getReader()
      const decoder = new TextDecoder()
      let received = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        received += decoder.decode(value, { stream: true })
        const blocks = received.split('\\n\\n')
        received = blocks.pop()
        for (const block of blocks) {
          for (const line of block.split('\\n')) {
            if (line.startsWith('data: ')) frames.push(line.slice('data: '.length))
          }
        }
      }
    })()
  })()`
}
