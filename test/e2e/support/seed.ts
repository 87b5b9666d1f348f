import { z } from 'zod'
import type { ExternalSandbox } from './processes'

/*
 * `GET /__sandbox/seed` of an external sandbox: the ids of its resources grouped by their
 * current state, so a test both finds what it needs and checks a change through a later call.
 * The one seed helper of the specs; src/sandbox/seed/ids.ts has the whole shape, this schema the
 * parts the specs read.
 */

const treeSchema = z.array(
  z.object({ id: z.string(), name: z.string(), parentId: z.string().nullable() }),
)

const seedSchema = z.looseObject({
  migrations: z.record(z.string(), z.array(z.string())),
  certificates: z.looseObject({ all: z.array(z.string()), withPrivateKey: z.array(z.string()) }),
  certificateFolderTree: treeSchema,
  volumes: z.array(z.object({ nodeId: z.string(), name: z.string(), sizeBytes: z.number() })),
  incidents: z.object({ open: z.array(z.string()), resolved: z.array(z.string()) }),
  copyJobs: z.record(z.string(), z.array(z.string())),
  databases: z.record(z.string(), z.array(z.string())),
  proxyHosts: z.array(
    z.object({ id: z.string(), routes: z.array(z.object({ id: z.string(), status: z.string() })) }),
  ),
  deployments: z.array(z.object({ nodeId: z.string(), deploymentId: z.string() })),
  apps: z.array(z.object({ id: z.string(), environmentIds: z.array(z.string()) })),
  appEnvironments: z.array(
    z.object({ id: z.string(), name: z.string(), viewerMayView: z.boolean() }),
  ),
  loggingEnvironmentFolders: z.array(
    z.object({ id: z.string(), environmentIds: z.array(z.string()) }),
  ),
  loggingSchemas: z.array(z.string()),
  nginxTemplateFolders: z.array(z.string()),
  userFolderTree: treeSchema,
})
export type Seed = z.infer<typeof seedSchema>
export type SeedVolume = Seed['volumes'][number]

export async function sandboxSeed(sandbox: Pick<ExternalSandbox, 'url' | 'tokens'>): Promise<Seed> {
  const response = await fetch(`${sandbox.url}/__sandbox/seed`, {
    headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
  })
  if (!response.ok) throw new Error(`/__sandbox/seed answered ${response.status}`)
  return seedSchema.parse(await response.json())
}

/** The first id of one of the seed's groups (`seed.copyJobs['running']`, say); `what` names it. */
export function firstSeeded(ids: readonly string[] | undefined, what: string): string {
  const [id] = ids ?? []
  if (id === undefined) throw new Error(`the seed has no ${what}`)
  return id
}

/** A proxy route the seed left failed, with its host (what op 14 retries). */
export function failedRoute(seed: Seed): {
  host: Seed['proxyHosts'][number]
  route: Seed['proxyHosts'][number]['routes'][number]
} {
  for (const host of seed.proxyHosts) {
    const route = host.routes.find((candidate) => candidate.status === 'failed')
    if (route) return { host, route }
  }
  throw new Error('the seed has no failed route')
}
