import { afterEach, describe, expect, it, vi } from 'vitest'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import { createSandboxPki } from '../../src/sandbox/pki'
import { buildSeed } from '../../src/sandbox/seed'
import { rebasedSeed } from '../../src/sandbox/seed/rebase'
import { MINUTE_MS } from '../../src/sandbox/seed/time'
import { createVolumeArchive } from '../../src/sandbox/volumes'

/*
 * A reset (`POST /__sandbox/reset`, what every e2e test starts from) restores the seed as a
 * fresh sandbox would have it at that moment: late in a CI run, a certificate "expiring in 7
 * days" still expires in 7 days, not in 6 days and 23.5 hours.
 */

const START = Date.parse('2026-03-01T09:00:00.000Z')
const LATER = 30 * MINUTE_MS

interface ListedCertificate {
  id: string
  notAfter: string
  daysUntilExpiry: number
  createdAt: string
}

async function certificates(sandbox: RunningSandbox): Promise<Map<string, ListedCertificate>> {
  const response = await fetch(`${sandbox.url}/api/ssl-certificates?limit=100&showSystem=true`, {
    headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
  })
  const { data } = (await response.json()) as { data: ListedCertificate[] }
  return new Map(data.map((certificate) => [certificate.id, certificate]))
}

let sandbox: RunningSandbox | null = null
afterEach(async () => {
  await sandbox?.close()
  sandbox = null
  vi.useRealTimers()
})

describe('the sandbox reset', () => {
  it('moves the seed’s times to the moment of the reset', async () => {
    // Only the clock is faked: the server, the databases and their timers run as they do.
    vi.useFakeTimers({ toFake: ['Date'], now: START })
    sandbox = await startSandbox()
    const atStart = await certificates(sandbox)
    expect(atStart.size).toBeGreaterThan(5)

    vi.setSystemTime(START + LATER)
    await sandbox.reset()
    const afterReset = await certificates(sandbox)

    expect([...afterReset.keys()].sort()).toEqual([...atStart.keys()].sort())
    for (const [id, before] of atStart) {
      const after = afterReset.get(id)
      expect(after?.daysUntilExpiry, before.notAfter).toBe(before.daysUntilExpiry)
      expect(Date.parse(after?.notAfter ?? '') - Date.parse(before.notAfter)).toBe(LATER)
      expect(Date.parse(after?.createdAt ?? '') - Date.parse(before.createdAt)).toBe(LATER)
    }
  })

  it('leaves no time of the seed behind: a rebased seed is a seed built then', async () => {
    const pki = await createSandboxPki()
    const tokens = { admin: 'admin-token', viewer: 'viewer-token' }
    const build = (now: number) => buildSeed({ pki, createVolumeArchive, tokens, now })
    const [early, late] = await Promise.all([build(START), build(START + LATER)])
    const differences = differencesOf(rebasedSeed(early.state, LATER), late.state)
    expect(differences).toEqual([])
  })
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Where two seeds differ, beyond what each build makes afresh: ids, and a certificate's key
 * material and what is read from it (serial, fingerprint; its validity is second-precise, so
 * its times are compared to the second).
 */
function differencesOf(rebased: unknown, fresh: unknown, at = ''): string[] {
  if (Object.is(rebased, fresh)) return []
  if (typeof rebased === 'string' && typeof fresh === 'string') {
    if (UUID.test(rebased) && UUID.test(fresh)) return []
    if (/\.material$|\.(serialNumber|fingerprintSha256)$/.test(at)) return []
    if (/\.facts\.not(Before|After)$/.test(at)) {
      return Math.abs(Date.parse(rebased) - Date.parse(fresh)) < 1000 ? [] : [at]
    }
    return [`${at}: ${rebased} != ${fresh}`]
  }
  if (
    typeof rebased === 'object' &&
    rebased !== null &&
    typeof fresh === 'object' &&
    fresh !== null
  ) {
    if (at.endsWith('.material')) return []
    const keys = new Set([...Object.keys(rebased), ...Object.keys(fresh)])
    return [...keys].flatMap((key) =>
      differencesOf(
        (rebased as Record<string, unknown>)[key],
        (fresh as Record<string, unknown>)[key],
        `${at}.${key}`,
      ),
    )
  }
  return [`${at}: ${String(rebased)} != ${String(fresh)}`]
}
