import { volumeKey } from '../context'
import type { SandboxPki } from '../pki/types'
import type { PostgresDatabaseSpec } from '../postgres/types'
import type { Role, SandboxState, VolumeRecord } from '../state'
import type { CreateVolumeArchive, VolumeArchive } from '../volumes/types'
import { seedApps } from './apps'
import { bulkCertificates } from './bulk-certificates'
import { seedCertificates } from './certificates'
import {
  seedCertificateFolders,
  seedLoggingEnvironments,
  seedLoggingSchemas,
  seedNginxTemplateFolders,
  seedUserFolders,
} from './folders'
import {
  seedCopyJobs,
  seedDatabases,
  seedDeployments,
  seedNodes,
  seedProxyHosts,
  seedVolumes,
} from './infrastructure'
import { seedMigrations } from './migrations'
import { seedInferenceModels, seedPeople } from './people'
import { seedIncidents, seedStatusComponents, seedStatusPage } from './status-page'
import { seedClock } from './time'

export interface SeedOptions {
  pki: SandboxPki
  createVolumeArchive: CreateVolumeArchive
  tokens: Record<Role, string>
  now: number
  /**
   * Scale testing (`--certificates N`): at least this many certificates in all, the seeded
   * ones plus generated ones; the seed alone when not given or smaller.
   */
  certificateCount?: number
}

export interface BuiltSeed {
  state: SandboxState
  /** Archives of the seeded volumes by volumeKey; generated on demand, never held whole. */
  archives: Map<string, VolumeArchive>
}

/**
 * Builds the sandbox's initial state once. A reset restores a clone of it, so ids (and the
 * certificate material, which is slow to make) stay the same for the sandbox's lifetime.
 */
export async function buildSeed(options: SeedOptions): Promise<BuiltSeed> {
  const clock = seedClock(options.now)
  const nodes = seedNodes()
  const certificateFolders = seedCertificateFolders(clock)
  const logging = seedLoggingEnvironments(clock)
  const [seededCertificates, databases] = await Promise.all([
    seedCertificates(options.pki, clock, certificateFolders.byPath),
    seedDatabases(options.pki, clock, nodes),
  ])
  const certificates = [
    ...seededCertificates,
    ...bulkCertificates(
      (options.certificateCount ?? 0) - seededCertificates.length,
      seededCertificates,
      certificateFolders.folders,
    ),
  ]
  const certificateIdByName = new Map(
    certificates.map((certificate) => [certificate.name, certificate.id]),
  )

  const archives = new Map<string, VolumeArchive>()
  const volumes: VolumeRecord[] = seedVolumes(clock, nodes).map((volume) => {
    const archive = options.createVolumeArchive({
      nodeId: volume.nodeId,
      name: volume.name,
      dataBytes: volume.dataBytes,
      seed: volume.contentSeed,
    })
    archives.set(volumeKey(volume.nodeId, volume.name), archive)
    return { ...volume, archiveBytes: archive.sizeBytes }
  })

  const deployments = seedDeployments(clock, nodes)
  const statusComponents = seedStatusComponents()
  const apps = seedApps(nodes)
  const people = seedPeople(clock, options.tokens)

  const state: SandboxState = {
    users: people.users,
    tokens: people.tokens,
    sessions: people.sessions,
    certificates,
    certificateFolders: certificateFolders.folders,
    userFolders: seedUserFolders(clock),
    nginxTemplateFolders: seedNginxTemplateFolders(clock),
    loggingEnvironmentFolders: logging.folders,
    loggingEnvironments: logging.environments,
    loggingSchemas: seedLoggingSchemas(clock, logging.environments),
    nodes,
    databases,
    migrations: seedMigrations(clock, nodes, deployments),
    proxyHosts: seedProxyHosts(clock, nodes, certificateIdByName),
    volumes,
    copyJobs: seedCopyJobs(clock, volumes),
    statusPage: seedStatusPage(),
    statusComponents,
    incidents: seedIncidents(clock, statusComponents),
    deployments,
    appEnvironments: apps.environments,
    apps: apps.apps,
    appMembers: apps.members,
    inferenceModels: seedInferenceModels(clock),
  }
  return { state, archives }
}

/** The PostgreSQL databases op 5 runs against, and what each is seeded with. */
export function postgresDatabasesOf(state: SandboxState): PostgresDatabaseSpec[] {
  return state.databases.flatMap((database) =>
    database.engine === 'postgresql' && database.postgresSeed
      ? [{ id: database.id, name: database.name, seed: database.postgresSeed }]
      : [],
  )
}
