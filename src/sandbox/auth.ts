import { createHash, timingSafeEqual } from 'node:crypto'
import type { OperationName } from '../shared/api'
import { forbidden, unauthorized } from './failure'
import type { Role, SandboxState, SessionRecord, TokenRecord, UserRecord } from './state'

/** Who is calling: the user, their role and the browser session their token belongs to. */
export interface Caller {
  user: UserRecord
  role: Role
  token: TokenRecord
  session: SessionRecord
}

/**
 * The permission each operation needs, as `resource:area:action` (the spec's section 5).
 * The spec names only op 19's; the others are the sandbox's plausible choice, so that every
 * 403 can say which permission was missing.
 */
export const PERMISSION_FOR_OPERATION: Record<OperationName, string> = {
  listSessions: 'auth:sessions:read',
  logout: 'auth:sessions:delete',
  moveCertificateFolder: 'ssl:folders:edit',
  moveUserFolder: 'admin:user-folders:edit',
  runPostgresQuery: 'databases:postgres:query',
  listInferenceModels: 'inference:models:read',
  uploadCertificate: 'ssl:certificates:create',
  rotateDatabaseCertificate: 'databases:certificates:rotate',
  reorderNginxTemplateFolders: 'nginx:templates:edit',
  moveCertificates: 'ssl:certificates:edit',
  reorderLoggingEnvironments: 'logging:environments:edit',
  exportCertificate: 'certificates:exports:create',
  resolveMigration: 'docker:migrations:edit',
  retryProxyRoute: 'proxy:routes:edit',
  exportVolume: 'docker:volumes:read',
  listCertificates: 'ssl:certificates:read',
  cancelCopyJob: 'storage:copy-jobs:edit',
  resolveIncident: 'status-page:incidents:edit',
  resolveDeploymentSource: 'docker:containers:edit',
  listAppMembers: 'apps:members:read',
  getStatusPagePreview: 'status-page:preview:read',
  getLoggingSchema: 'logging:schemas:read',
}

/** The viewer reads (ops 1, 6, 15, 16, 20, 21, 22) and may log itself out (op 2). */
const VIEWER_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'listSessions',
  'logout',
  'listInferenceModels',
  'exportVolume',
  'listCertificates',
  'listAppMembers',
  'getStatusPagePreview',
  'getLoggingSchema',
])

export const SANDBOX_ADMIN_PERMISSION = 'sandbox:admin:manage'

/** The token of `Authorization: Bearer <token>`, or null when the header is absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null
  const match = /^Bearer +(\S+) *$/i.exec(header)
  return match?.[1] ?? null
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

/** Compares digests in constant time, so response timing does not leak a token's prefix. */
function sameToken(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b))
}

/** The caller behind the Authorization header; 401 when missing, malformed, unknown or logged out. */
export function authenticate(state: SandboxState, header: string | undefined): Caller {
  const presented = bearerToken(header)
  if (presented === null) throw unauthorized()
  const token = state.tokens.find((candidate) => sameToken(candidate.token, presented))
  if (!token || token.revoked) throw unauthorized()
  const session = state.sessions.find((candidate) => candidate.id === token.sessionId)
  const user = state.users.find((candidate) => candidate.id === token.userId)
  if (!session || session.endedAt !== null || !user) throw unauthorized()
  return { user, role: user.role, token, session }
}

export function authorize(caller: Caller, operation: OperationName): void {
  if (caller.role === 'admin' || VIEWER_OPERATIONS.has(operation)) return
  throw forbidden(PERMISSION_FOR_OPERATION[operation])
}

/**
 * `/__sandbox/*` is for tests and the app's sandbox profile: the admin token the sandbox was
 * started with, even after it logged out (a reset is how a logged-out token comes back).
 * Any other live token is refused with 403, anything else with 401.
 */
export function authenticateSandboxAdmin(
  state: SandboxState,
  header: string | undefined,
  adminToken: string,
): void {
  const presented = bearerToken(header)
  if (presented === null) throw unauthorized()
  if (sameToken(presented, adminToken)) return
  const live = state.tokens.some((token) => !token.revoked && sameToken(token.token, presented))
  throw live ? forbidden(SANDBOX_ADMIN_PERMISSION) : unauthorized()
}
