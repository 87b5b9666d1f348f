import { describe, expect, it } from 'vitest'
import { closeWithin, QUIT_LIMIT_MS } from '../../src/main/shell/quit'

/*
 * Quitting waits for the desk to close, but not for ever. The end-to-end proof with
 * the built main and a request that hangs is test/build/fake-electron.test.ts; this is the rule.
 */

describe('closeWithin', () => {
  it('says closed when the desk closes, failed when closing throws', async () => {
    expect(await closeWithin(async () => undefined, 1_000)).toBe('closed')
    expect(
      await closeWithin(async () => {
        throw new Error('SQLITE_BUSY')
      }, 1_000),
    ).toBe('failed')
  })

  it('gives up on a close that never ends', async () => {
    expect(await closeWithin(() => new Promise<void>(() => undefined), 10)).toBe('timed-out')
  })

  it('has a limit a user would wait for, but not one that cuts a normal close short', () => {
    expect(QUIT_LIMIT_MS).toBeGreaterThanOrEqual(2_000)
    expect(QUIT_LIMIT_MS).toBeLessThanOrEqual(10_000)
  })
})
