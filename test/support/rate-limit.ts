import { expect } from 'vitest'
import { call, type SandboxProcess } from './sandbox-process'

/** The next `count` operation calls meet the rate limit (the gateway flavour's control). */
export async function armRateLimit(
  sandbox: Pick<SandboxProcess, 'url' | 'tokens'>,
  count: number,
  retryAfterSeconds: number,
): Promise<void> {
  const response = await call(sandbox, {
    method: 'POST',
    path: '/__sandbox/rate-limit',
    body: { count, retryAfterSeconds },
  })
  expect(response.status).toBe(200)
}
