import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { MIGRATION_STATUSES } from '../../../src/shared/api'
import {
  call,
  callOperation,
  PERSONALITIES,
  sandboxForThisFile,
  type SandboxProcess,
  UNKNOWN_UUID,
} from '../../support/sandbox-process'
import { expectError, expectSuccess, expectValidationError } from '../../support/answers'
import { itRejectsAnEmptyIdSegment, itRejectsEachInvalidBody } from '../../support/refusals'

/*
 * Operations 13 (resolve a migration that needs attention) and 19 (resolve the branch head
 * of a blue/green deployment's Git source).
 */

/** What op 13 must show beyond section 2.4: the effects section 3 lists. */
const resolvedMigrationSchema = z.looseObject({
  lock: z.looseObject({ held: z.boolean() }),
  maintenanceMode: z.looseObject({ active: z.boolean() }),
  sourceRestartPolicy: z.string(),
  replacedSourceRestartPolicy: z.string().nullable(),
  resolution: z.looseObject({
    authoritativeSide: z.enum(['source', 'target']),
    authoritativeNodeId: z.string(),
    containersStarted: z.number(),
    containersRemoved: z.number(),
  }),
})

const deploymentSchema = z.looseObject({
  id: z.string(),
  nodeId: z.string(),
  desiredCommit: z.string().regex(/^[0-9a-f]{40}$/),
  previousDesiredCommit: z.string().nullable().optional(),
  source: z.looseObject({ type: z.literal('git'), branch: z.string(), branchHead: z.string() }),
})

const sandbox = sandboxForThisFile({ resetBeforeEach: true })

function needingAttention(on: SandboxProcess = sandbox): string[] {
  const ids = on.seed.migrations.needs_attention ?? []
  expect(ids.length, 'at least two migrations need attention').toBeGreaterThanOrEqual(2)
  return ids
}

function resolve(id: string, authoritativeSide: unknown, on: SandboxProcess = sandbox) {
  return callOperation(on, 'resolveMigration', {
    params: { id },
    body: { authoritativeSide },
  })
}

describe('op 13: POST /api/docker/migrations/{id}/resolve', () => {
  it('the seed has migrations in every status', () => {
    for (const status of MIGRATION_STATUSES) {
      expect(sandbox.seed.migrations[status]?.length ?? 0, status).toBeGreaterThan(0)
    }
  })

  it('a resolved migration stays resolved: resolving it again is 409, either side', async () => {
    const id = needingAttention()[0] as string
    expectSuccess('resolveMigration', await resolve(id, 'target'))
    expectError(await resolve(id, 'target'), 'CONFLICT')
    expectError(await resolve(id, 'source'), 'CONFLICT')
    // The other one still needs attention.
    expectSuccess('resolveMigration', await resolve(needingAttention()[1] as string, 'source'))
    await sandbox.reset()
    expectSuccess('resolveMigration', await resolve(id, 'source'))
  })

  it('409 for a migration in any status other than needs_attention', async () => {
    for (const status of MIGRATION_STATUSES.filter(
      (candidate) => candidate !== 'needs_attention',
    )) {
      const id = sandbox.seed.migrations[status]?.[0]
      if (id === undefined) continue
      expectError(await resolve(id, 'target'), 'CONFLICT')
    }
  })

  it('404 for an unknown migration', async () => {
    expectError(await resolve(UNKNOWN_UUID, 'target'), 'NOT_FOUND')
    expectError(await resolve('no-such-migration', 'target'), 'NOT_FOUND')
  })

  itRejectsEachInvalidBody(
    sandbox,
    'resolveMigration',
    () => ({ id: needingAttention()[0] as string }),
    [
      ['authoritativeSide missing', {}, ['authoritativeSide']],
      [
        'authoritativeSide not source or target',
        { authoritativeSide: 'both' },
        ['authoritativeSide'],
      ],
      [
        'authoritativeSide in the wrong case',
        { authoritativeSide: 'Target' },
        ['authoritativeSide'],
      ],
      ['an unknown field', { authoritativeSide: 'target', force: true }, ['force']],
    ],
  )

  itRejectsAnEmptyIdSegment(sandbox, '400 naming id when the id segment is empty', {
    method: 'POST',
    path: '/api/docker/migrations//resolve',
    body: { authoritativeSide: 'target' },
  })
})

/*
 * The next state after op 13 is not shown (section 3): the default answers `completed` (target)
 * or `cancelled` (source), the variant `cleanup_pending` either way. Both must show section
 * 3's effects.
 */
describe.each(PERSONALITIES)(
  'op 13: the migration after resolve ($personality)',
  ({ variant, args }) => {
    // The default personality shares the file's sandbox; the variant gets its own process.
    const on = variant ? sandboxForThisFile({ resetBeforeEach: true, args }) : sandbox

    it('target chosen: lock and maintenance released, no container touched', async () => {
      const id = needingAttention(on)[0] as string
      const migration = expectSuccess('resolveMigration', await resolve(id, 'target', on)).data
      expect(migration.id).toBe(id)
      expect(migration.status).toBe(variant ? 'cleanup_pending' : 'completed')
      expect(migration.completedAt).not.toBeNull()
      const effects = resolvedMigrationSchema.parse(migration)
      expect(effects.lock.held).toBe(false)
      expect(effects.maintenanceMode.active).toBe(false)
      expect(effects.resolution.authoritativeSide).toBe('target')
      expect(effects.resolution.authoritativeNodeId).toBe(migration.targetNodeId)
      expect(effects.resolution.containersStarted).toBe(0)
      expect(effects.resolution.containersRemoved).toBe(0)
      // The source's restart policy is restored only when the source is chosen.
      expect(effects.sourceRestartPolicy).toBe('no')
    })

    it('source chosen: the replaced restart policy is restored on the source', async () => {
      const id = needingAttention(on)[1] as string
      const migration = expectSuccess('resolveMigration', await resolve(id, 'source', on)).data
      expect(migration.status).toBe(variant ? 'cleanup_pending' : 'cancelled')
      const effects = resolvedMigrationSchema.parse(migration)
      expect(effects.lock.held).toBe(false)
      expect(effects.maintenanceMode.active).toBe(false)
      expect(effects.resolution.authoritativeNodeId).toBe(migration.sourceNodeId)
      expect(effects.replacedSourceRestartPolicy).toBeNull()
      expect(effects.sourceRestartPolicy).not.toBe('no')
      expect(effects.resolution.containersStarted).toBe(0)
      expect(effects.resolution.containersRemoved).toBe(0)
    })
  },
)

describe('op 19: POST /api/docker/nodes/{nodeId}/deployments/{deploymentId}/source/resolve', () => {
  function resolveSource(nodeId: string, deploymentId: string, token?: string) {
    return callOperation(sandbox, 'resolveDeploymentSource', {
      params: { nodeId, deploymentId },
      token,
    })
  }

  it('records the branch head as the desired commit, without building', async () => {
    const { nodeId, deploymentId } = sandbox.seed.deployments[0] as {
      nodeId: string
      deploymentId: string
    }
    const first = deploymentSchema.parse(
      expectSuccess('resolveDeploymentSource', await resolveSource(nodeId, deploymentId)).data,
    )
    expect(first.id).toBe(deploymentId)
    expect(first.nodeId).toBe(nodeId)
    expect(first.desiredCommit).toBe(first.source.branchHead)
    expect(first.source.desiredCommit).toBe(first.source.branchHead)
    expect((first as Record<string, unknown>).buildTriggered).toBe(false)

    // A later call sees the recorded commit as the one it replaces.
    const second = deploymentSchema.parse(
      expectSuccess('resolveDeploymentSource', await resolveSource(nodeId, deploymentId)).data,
    )
    expect(second.previousDesiredCommit).toBe(first.desiredCommit)
    expect(second.desiredCommit).toBe(first.desiredCommit)
  })

  it('the seed has a deployment whose desired commit is behind its branch head', async () => {
    const states = await Promise.all(
      sandbox.seed.deployments.map(async ({ nodeId, deploymentId }) =>
        deploymentSchema.parse(
          expectSuccess('resolveDeploymentSource', await resolveSource(nodeId, deploymentId)).data,
        ),
      ),
    )
    expect(states.some((state) => state.previousDesiredCommit !== state.desiredCommit)).toBe(true)
  })

  it('the viewer is refused with 403 naming docker:containers:edit', async () => {
    const { nodeId, deploymentId } = sandbox.seed.deployments[0] as {
      nodeId: string
      deploymentId: string
    }
    const body = expectError(
      await resolveSource(nodeId, deploymentId, sandbox.tokens.viewer),
      'FORBIDDEN',
    )
    expect(body.details).toEqual(expect.objectContaining({ permission: 'docker:containers:edit' }))
  })

  it('422 for a deployment without a Git source', async () => {
    const other = sandbox.seed.otherDeployments?.[0]
    expect(other, 'the seed lists a deployment without a Git source').toBeDefined()
    if (!other) return
    expectError(await resolveSource(other.nodeId, other.deploymentId), 'UNPROCESSABLE_ENTITY')
  })

  it('404 for an unknown node, an unknown deployment, or a deployment on another node', async () => {
    const { nodeId, deploymentId } = sandbox.seed.deployments[0] as {
      nodeId: string
      deploymentId: string
    }
    expectError(await resolveSource('no-such-node', deploymentId), 'NOT_FOUND')
    expectError(await resolveSource(nodeId, 'no-such-deployment'), 'NOT_FOUND')
    const otherNode = sandbox.seed.volumes.find((volume) => volume.nodeId !== nodeId)?.nodeId
    expect(otherNode).toBeDefined()
    expectError(await resolveSource(otherNode as string, deploymentId), 'NOT_FOUND')
  })

  it('400 naming the empty path parameter', async () => {
    const { nodeId, deploymentId } = sandbox.seed.deployments[0] as {
      nodeId: string
      deploymentId: string
    }
    expectValidationError(
      await call(sandbox, {
        method: 'POST',
        path: `/api/docker/nodes//deployments/${deploymentId}/source/resolve`,
      }),
      ['nodeId'],
    )
    expectValidationError(
      await call(sandbox, {
        method: 'POST',
        path: `/api/docker/nodes/${nodeId}/deployments//source/resolve`,
      }),
      ['deploymentId'],
    )
  })
})
