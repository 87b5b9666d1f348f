import { describe, expect, it } from 'vitest'
import { objectsOfAnswer } from '../../src/main/features/known-objects/answer-objects'

/*
 * The resolve dialog's "Reason" row shows why a migration stopped, from what the last answer
 * carried (KnownMigration reads the known object's errorCode and errorMessage). The spec's
 * migration object (2.4) names them errorCode and errorMessage, as the real deployment does; a
 * deployment that says it as reason, message or detail is read too. Before this, main kept only
 * status, resource, nodes and phase, so the row was empty.
 */

const MIGRATION = '33333333-3333-4333-8333-333333333333'

function migrationFields(data: Record<string, unknown>): Record<string, string> | undefined {
  const [migration] = objectsOfAnswer(
    'resolveMigration',
    { params: { id: MIGRATION }, query: {}, answer: { data: { id: MIGRATION, ...data } } },
    1,
  )
  expect(migration?.kind).toBe('migration')
  return migration?.fields
}

describe('why a migration stopped, as its answer says it', () => {
  it('keeps the spec’s errorCode and errorMessage', () => {
    expect(
      migrationFields({
        status: 'needs_attention',
        errorCode: 'SPLIT_BRAIN_SUSPECTED',
        errorMessage: 'Both nodes accepted writes during cutover',
      }),
    ).toMatchObject({
      errorCode: 'SPLIT_BRAIN_SUSPECTED',
      errorMessage: 'Both nodes accepted writes during cutover',
    })
  })

  it.each(['reason', 'message', 'detail'])('reads a reason sent as %s', (field) => {
    expect(migrationFields({ status: 'failed', [field]: 'Target disk full' })).toMatchObject({
      errorMessage: 'Target disk full',
    })
  })

  it('leaves the reason out when the answer gives none (null, empty, not text)', () => {
    const fields = migrationFields({ errorCode: null, errorMessage: '', reason: { nested: 1 } })
    expect(fields).not.toHaveProperty('errorCode')
    expect(fields).not.toHaveProperty('errorMessage')
  })
})
