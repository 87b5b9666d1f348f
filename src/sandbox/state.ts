import type { MigrationStatus } from '../shared/api'
import type { CertificateFacts, CertificateMaterial } from './pki/types'

/*
 * Everything the sandbox remembers, as plain data. It holds no functions, streams or class
 * instances, so `structuredClone` of the seed restores it exactly on reset.
 * Resource timestamps are ISO 8601 strings; session timestamps are epoch milliseconds
 * (docs/SERVICE.md, "Session timestamps").
 */

export type Role = 'admin' | 'viewer'

export interface UserRecord {
  id: string
  name: string
  email: string
  role: Role
}

/** A bearer token belongs to one browser session; logging out revokes it. */
export interface TokenRecord {
  token: string
  userId: string
  sessionId: string
  revoked: boolean
}

export interface SessionRecord {
  id: string
  userId: string
  authMethod: 'oidc' | 'password' | 'email_otp'
  createdAt: number
  lastSeenAt: number
  expiresAt: number
  ipAddress: string | null
  userAgent: string | null
  mfaSatisfiedAt: number | null
  /** Set when the session is logged out; an ended session is no longer listed. */
  endedAt: number | null
}

export const CERTIFICATE_TYPES = ['custom', 'letsencrypt', 'internal'] as const
export type CertificateType = (typeof CERTIFICATE_TYPES)[number]

export const CERTIFICATE_STATUSES = ['active', 'expiring_soon', 'expired', 'revoked'] as const
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number]

export interface CertificateRecord {
  id: string
  name: string
  type: CertificateType
  folderId: string | null
  /** Certificates the service manages for itself; listed only with showSystem=true. */
  isSystem: boolean
  autoRenew: boolean
  revokedAt: string | null
  origin: 'seed' | 'upload'
  createdAt: string
  updatedAt: string
  material: CertificateMaterial
  facts: CertificateFacts
  /**
   * The internal PKI's own record of the same certificate (its id in `/api/certificates`), for
   * type `internal`: the gateway flavour's op 12 exports by this id, as a real deployment does,
   * and lists it as the SSL certificate's `internalCertId`. Absent for other types.
   */
  pkiCertificateId?: string
}

/** Certificate folders and user folders: a tree by parentId. */
export interface FolderRecord {
  id: string
  name: string
  parentId: string | null
  sortOrder: number
  createdAt: string
  updatedAt: string
}

export interface NginxTemplateFolderRecord {
  id: string
  name: string
  sortOrder: number
  templateCount: number
  updatedAt: string
}

export interface LoggingEnvironmentFolderRecord {
  id: string
  name: string
  sortOrder: number
}

export interface LoggingEnvironmentRecord {
  id: string
  name: string
  slug: string
  folderId: string
  sortOrder: number
  retentionDays: number
  updatedAt: string
}

export interface LoggingSchemaField {
  name: string
  type: 'string' | 'integer' | 'float' | 'boolean' | 'timestamp' | 'ip' | 'object'
  required: boolean
  description: string
}

export interface LoggingSchemaRecord {
  id: string
  slug: string
  name: string
  description: string
  version: number
  timestampField: string
  fields: LoggingSchemaField[]
  environmentIds: string[]
  updatedAt: string
}

export interface NodeRecord {
  id: string
  slug: string
  name: string
  hostname: string
  daemonVersion: string
  /** Older daemons cannot reload a database certificate in place: rotation restarts instead. */
  canReloadCertificates: boolean
}

export type DatabaseEngineName = 'postgresql' | 'redis' | 'clickhouse'
export type RotationMode = 'reloaded_in_place' | 'scheduled_reread' | 'restarted'

export interface DatabaseCertificate {
  commonName: string
  serialNumber: string
  notBefore: string
  notAfter: string
  fingerprintSha256: string
  issuer: string
  subjectAltNames: string[]
}

export interface RotationRecord {
  id: string
  mode: RotationMode
  status: 'completed' | 'pending'
  requestedAt: string
  /** Epoch ms when a scheduled reread is done; null when the rotation completed at once. */
  completesAt: number | null
  completedAt: string | null
  serialNumber: string
  previousSerialNumber: string
}

export interface DatabaseRecord {
  id: string
  name: string
  engine: DatabaseEngineName
  version: string
  nodeId: string
  host: string
  port: number
  status: 'running'
  /** What op 5's PostgreSQL engine seeds this database with. */
  postgresSeed: 'large' | 'small' | null
  certificate: DatabaseCertificate
  lastRotation: RotationRecord | null
  createdAt: string
}

/** Section 2.4, plus the effects op 13 must show (lock, maintenance mode, restart policy). */
export interface MigrationRecord {
  id: string
  resourceType: 'container' | 'deployment'
  resourceName: string
  deploymentId: string | null
  sourceNodeId: string
  targetNodeId: string
  targetNodeSlug: string | null
  targetResourceId: string | null
  keepSource: boolean
  sourceState: string
  targetState: string
  status: MigrationStatus
  phase: string
  progress: Record<string, unknown>
  verification: Record<string, unknown>
  errorCode: string | null
  errorMessage: string | null
  cancellationRequestedAt: string | null
  cutoverAt: string | null
  createdAt: string | null
  startedAt: string | null
  updatedAt: string | null
  completedAt: string | null
  lock: { held: boolean; acquiredAt: string | null; releasedAt: string | null }
  maintenanceMode: {
    active: boolean
    nodeIds: string[]
    enteredAt: string | null
    releasedAt: string | null
  }
  /** The policy the migration put on the source container ("no", so it stays down). */
  sourceRestartPolicy: string
  /** The policy it replaced, restored when the source is chosen as authoritative. */
  replacedSourceRestartPolicy: string | null
  resolution: MigrationResolution | null
}

export interface MigrationResolution {
  authoritativeSide: 'source' | 'target'
  authoritativeNodeId: string
  resolvedAt: string
  resolvedBy: string
  lockReleased: boolean
  maintenanceModeReleased: boolean
  restartPolicyRestored: boolean
  containersStarted: number
  containersRemoved: number
}

export type RouteStatus = 'active' | 'failed' | 'pending' | 'disabled'

export interface ProxyRouteRecord {
  id: string
  domain: string
  path: string
  forwardTo: string
  managed: boolean
  status: RouteStatus
  lastError: string | null
  retryCount: number
  lastAttemptAt: string | null
  updatedAt: string
}

export interface ProxyHostRecord {
  id: string
  name: string
  domainNames: string[]
  forwardHost: string
  forwardPort: number
  nodeId: string
  certificateId: string | null
  routes: ProxyRouteRecord[]
}

export interface VolumeRecord {
  nodeId: string
  name: string
  driver: 'local'
  /** Bytes of file content inside the volume. */
  dataBytes: number
  /** Bytes of its .tar.gz export (known without generating it). */
  archiveBytes: number
  /** Makes the archive deterministic. */
  contentSeed: string
  createdAt: string
  labels: Record<string, string>
}

export const COPY_JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const
export type CopyJobStatus = (typeof COPY_JOB_STATUSES)[number]

export interface CopyJobRecord {
  id: string
  name: string
  status: CopyJobStatus
  source: { nodeId: string; volumeName: string }
  target: { nodeId: string; volumeName: string }
  totalBytes: number
  bytesCopied: number
  errorMessage: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  cancelledAt: string | null
  updatedAt: string
}

export type IncidentStatus = 'investigating' | 'identified' | 'monitoring' | 'resolved'

export interface IncidentUpdate {
  at: string
  status: IncidentStatus
  message: string
}

export interface IncidentRecord {
  id: string
  title: string
  status: IncidentStatus
  impact: 'minor' | 'major' | 'critical'
  componentIds: string[]
  createdAt: string
  updatedAt: string
  resolvedAt: string | null
  updates: IncidentUpdate[]
}

export interface StatusComponentRecord {
  id: string
  name: string
  group: string
  description: string
}

export interface StatusPageRecord {
  title: string
  slug: string
  publicUrl: string
}

export type DeploymentSource =
  | {
      type: 'git'
      repository: string
      branch: string
      /** The commit the branch points at now. */
      branchHead: string
      branchHeadMessage: string
      /** The commit the next build will use; op 19 sets it to branchHead. */
      desiredCommit: string | null
      deployedCommit: string | null
      desiredCommitResolvedAt: string | null
    }
  | { type: 'image'; image: string; tag: string }

export interface DeploymentRecord {
  id: string
  name: string
  nodeId: string
  strategy: 'blue_green' | 'recreate'
  activeColor: 'blue' | 'green' | null
  status: 'running' | 'stopped'
  source: DeploymentSource
  lastBuildAt: string | null
  updatedAt: string
}

export interface AppEnvironmentRecord {
  id: string
  name: string
  slug: string
  /** Roles that may view the environment (and so its members). */
  visibleTo: Role[]
}

export interface AppRecord {
  id: string
  name: string
  slug: string
  environmentIds: string[]
}

export interface AppMemberRecord {
  appId: string
  type: 'docker' | 'database' | 'proxy_host' | 'static_site'
  id: string
  name: string
  environmentId: string
  nodeIds: string[]
  /** Docker members run on one node. */
  nodeId: string | null
  /** Roles that may view this member, on top of the environment rule. */
  visibleTo: Role[]
}

export interface InferenceModelRecord {
  id: string
  created: number
  ownedBy: string
  kind: 'chat' | 'embedding' | 'completion'
  contextLength: number
  /** Roles whose users may call the model. */
  availableTo: Role[]
}

export interface SandboxState {
  users: UserRecord[]
  tokens: TokenRecord[]
  sessions: SessionRecord[]
  certificates: CertificateRecord[]
  certificateFolders: FolderRecord[]
  userFolders: FolderRecord[]
  nginxTemplateFolders: NginxTemplateFolderRecord[]
  loggingEnvironmentFolders: LoggingEnvironmentFolderRecord[]
  loggingEnvironments: LoggingEnvironmentRecord[]
  loggingSchemas: LoggingSchemaRecord[]
  nodes: NodeRecord[]
  databases: DatabaseRecord[]
  migrations: MigrationRecord[]
  proxyHosts: ProxyHostRecord[]
  volumes: VolumeRecord[]
  copyJobs: CopyJobRecord[]
  statusPage: StatusPageRecord
  statusComponents: StatusComponentRecord[]
  incidents: IncidentRecord[]
  deployments: DeploymentRecord[]
  appEnvironments: AppEnvironmentRecord[]
  apps: AppRecord[]
  appMembers: AppMemberRecord[]
  inferenceModels: InferenceModelRecord[]
}
