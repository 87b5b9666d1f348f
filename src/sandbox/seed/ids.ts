import { MIGRATION_STATUSES } from '../../shared/api'
import type { MigrationStatus } from '../../shared/api'
import { certificateStatus } from '../views'
import { retryFailsAgain } from './infrastructure'
import { COPY_JOB_STATUSES } from '../state'
import type { CopyJobStatus, SandboxState } from '../state'

/**
 * What `GET /__sandbox/seed` answers: the ids of the seeded resources of every kind, in the
 * shape the e2e seed schema fixes (extra keys are allowed and added below the fixed ones). Statuses are
 * the current ones, so after a resolve or cancel a caller can pick a resource that is still
 * in the state it needs; uploaded certificates are not seed and are left out.
 */
export interface SeedIds {
  certificates: {
    /** Every seeded certificate, system ones included. */
    all: string[]
    withPrivateKey: string[]
    system: string[]
    expired: string[]
    withoutPrivateKey: string[]
    expiringSoon: string[]
    revoked: string[]
  }
  certificateFolders: string[]
  userFolders: string[]
  nginxTemplateFolders: string[]
  loggingEnvironmentFolders: { id: string; environmentIds: string[] }[]
  loggingSchemas: string[]
  databases: {
    postgres: string[]
    redis: string[]
    clickhouse: string[]
    /** On a node whose daemon cannot reload certificates: op 8 restarts them. */
    daemonCannotReload: string[]
  }
  migrations: Record<MigrationStatus, string[]>
  /** `retryFailsAgain`: the gateway flavour's op 14 answers 200 with the route failed again. */
  proxyHosts: {
    id: string
    routes: { id: string; status: string; retryFailsAgain: boolean }[]
  }[]
  volumes: { nodeId: string; name: string; sizeBytes: number; dataBytes: number }[]
  copyJobs: Record<CopyJobStatus, string[]>
  incidents: { open: string[]; resolved: string[] }
  /** Blue/green deployments with a Git source (op 19 resolves their branch head). */
  deployments: { nodeId: string; deploymentId: string }[]
  /** Deployments without a Git source: op 19 refuses them with 422. */
  otherDeployments: { nodeId: string; deploymentId: string }[]
  apps: { id: string; environmentIds: string[] }[]
  inferenceModels: string[]
  nodes: { id: string; slug: string; canReloadCertificates: boolean }[]
  appEnvironments: { id: string; name: string; viewerMayView: boolean }[]
  certificateFolderTree: { id: string; name: string; parentId: string | null }[]
  userFolderTree: { id: string; name: string; parentId: string | null }[]
  /**
   * The internal PKI's certificates behind SSL certificates of type internal: the id op 12
   * takes in the gateway flavour (`internalCertId` in its list) and the SSL certificate's own.
   */
  pkiCertificates: { id: string; sslCertificateId: string; hasPrivateKey: boolean }[]
}

function byStatus<S extends string>(
  statuses: readonly S[],
  items: { id: string; status: S }[],
): Record<S, string[]> {
  const groups = Object.fromEntries(statuses.map((status) => [status, [] as string[]])) as Record<
    S,
    string[]
  >
  for (const item of items) groups[item.status].push(item.id)
  return groups
}

export function seedIdsOf(state: SandboxState, now: Date): SeedIds {
  const certificates = state.certificates.filter((certificate) => certificate.origin === 'seed')
  const ids = (list: { id: string }[]) => list.map((item) => item.id)
  const withStatus = (status: string) =>
    ids(certificates.filter((certificate) => certificateStatus(certificate, now) === status))
  const nodeCanReload = new Map(state.nodes.map((node) => [node.id, node.canReloadCertificates]))
  const databasesOf = (engine: string) =>
    ids(state.databases.filter((database) => database.engine === engine))
  const gitBlueGreen = state.deployments.filter(
    (deployment) => deployment.strategy === 'blue_green' && deployment.source.type === 'git',
  )
  const deploymentRef = (deployment: { id: string; nodeId: string }) => ({
    nodeId: deployment.nodeId,
    deploymentId: deployment.id,
  })
  const tree = (folders: { id: string; name: string; parentId: string | null }[]) =>
    folders.map(({ id, name, parentId }) => ({ id, name, parentId }))

  return {
    certificates: {
      all: ids(certificates),
      withPrivateKey: ids(
        certificates.filter((certificate) => certificate.material.privateKeyPem !== undefined),
      ),
      system: ids(certificates.filter((certificate) => certificate.isSystem)),
      expired: withStatus('expired'),
      withoutPrivateKey: ids(
        certificates.filter((certificate) => certificate.material.privateKeyPem === undefined),
      ),
      expiringSoon: withStatus('expiring_soon'),
      revoked: withStatus('revoked'),
    },
    certificateFolders: ids(state.certificateFolders),
    userFolders: ids(state.userFolders),
    nginxTemplateFolders: ids(state.nginxTemplateFolders),
    loggingEnvironmentFolders: state.loggingEnvironmentFolders.map((folder) => ({
      id: folder.id,
      environmentIds: ids(
        state.loggingEnvironments.filter((environment) => environment.folderId === folder.id),
      ),
    })),
    loggingSchemas: state.loggingSchemas.map((schema) => schema.slug),
    databases: {
      postgres: databasesOf('postgresql'),
      redis: databasesOf('redis'),
      clickhouse: databasesOf('clickhouse'),
      daemonCannotReload: ids(
        state.databases.filter((database) => nodeCanReload.get(database.nodeId) === false),
      ),
    },
    migrations: byStatus(MIGRATION_STATUSES, state.migrations),
    proxyHosts: state.proxyHosts.map((host) => ({
      id: host.id,
      routes: host.routes.map((route) => ({
        id: route.id,
        status: route.status,
        retryFailsAgain: route.status === 'failed' && retryFailsAgain(route),
      })),
    })),
    volumes: state.volumes.map((volume) => ({
      nodeId: volume.nodeId,
      name: volume.name,
      sizeBytes: volume.archiveBytes,
      dataBytes: volume.dataBytes,
    })),
    copyJobs: byStatus(COPY_JOB_STATUSES, state.copyJobs),
    incidents: {
      open: ids(state.incidents.filter((incident) => incident.status !== 'resolved')),
      resolved: ids(state.incidents.filter((incident) => incident.status === 'resolved')),
    },
    deployments: gitBlueGreen.map(deploymentRef),
    otherDeployments: state.deployments
      .filter((deployment) => !gitBlueGreen.includes(deployment))
      .map(deploymentRef),
    apps: state.apps.map((app) => ({ id: app.id, environmentIds: [...app.environmentIds] })),
    inferenceModels: ids(state.inferenceModels),
    nodes: state.nodes.map((node) => ({
      id: node.id,
      slug: node.slug,
      canReloadCertificates: node.canReloadCertificates,
    })),
    appEnvironments: state.appEnvironments.map((environment) => ({
      id: environment.id,
      name: environment.name,
      viewerMayView: environment.visibleTo.includes('viewer'),
    })),
    certificateFolderTree: tree(state.certificateFolders),
    userFolderTree: tree(state.userFolders),
    pkiCertificates: certificates.flatMap((certificate) =>
      certificate.pkiCertificateId === undefined
        ? []
        : [
            {
              id: certificate.pkiCertificateId,
              sslCertificateId: certificate.id,
              hasPrivateKey: certificate.material.privateKeyPem !== undefined,
            },
          ],
    ),
  }
}
