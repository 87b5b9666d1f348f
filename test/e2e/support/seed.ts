import type { ExternalSandbox } from './processes'

/**
 * `GET /__sandbox/seed` of an external sandbox: the ids of its resources grouped by their
 * current state, so a test both finds what it needs and checks a change through a later call.
 */
export async function sandboxSeed(
  sandbox: Pick<ExternalSandbox, 'url' | 'tokens'>,
): Promise<SeedIds> {
  const response = await fetch(`${sandbox.url}/__sandbox/seed`, {
    headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
  })
  if (!response.ok) throw new Error(`/__sandbox/seed answered ${response.status}`)
  return (await response.json()) as SeedIds
}

/** The parts of the seed these tests read (src/sandbox/seed/ids.ts has the whole shape). */
export interface SeedIds {
  migrations: Record<string, string[]>
  [key: string]: unknown
}
