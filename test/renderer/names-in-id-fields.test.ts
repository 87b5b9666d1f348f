import { describe, expect, it } from 'vitest'
import {
  ambiguousNameMessage,
  readNameOrId,
} from '../../src/renderer/src/features/ops-common/name-or-id'
import { whereIdsComeFrom } from '../../src/renderer/src/lib/id-kinds'

/*
 * Issue 40, item 10: an id field accepts the name of an object the app has seen where exactly
 * one object of its kind has it, refuses a name several share (saying which ids), and says
 * where ids come from for kinds the service cannot list.
 */

const names = new Map([
  ['id-1', 'billing-primary'],
  ['id-2', 'inventory'],
  ['id-3', 'inventory'],
])

describe('an id field’s text', () => {
  it('is taken as an id when it is a known id, or no known name', () => {
    expect(readNameOrId('id-2', names)).toEqual({ kind: 'id' })
    expect(readNameOrId('a1b2c3d4-0000-4000-8000-000000000000', names)).toEqual({ kind: 'id' })
    expect(readNameOrId('', names)).toEqual({ kind: 'id' })
  })

  it('stands for the one object with that name (any case, spaces around)', () => {
    expect(readNameOrId('  Billing-Primary ', names)).toEqual({
      kind: 'name',
      name: 'billing-primary',
      id: 'id-1',
    })
  })

  it('is refused when several objects share the name, naming their ids', () => {
    const reading = readNameOrId('inventory', names)
    expect(reading).toEqual({ kind: 'ambiguous', name: 'inventory', ids: ['id-2', 'id-3'] })
    if (reading.kind !== 'ambiguous') throw new Error('not ambiguous')
    expect(ambiguousNameMessage(reading)).toBe(
      '“inventory” is the name of 2 objects: id-2, id-3. Choose one by its id.',
    )
  })

  it('says where the ids of kinds the service cannot list come from', () => {
    for (const kind of ['database', 'deployment', 'node', 'copy-job', 'proxy-host', 'app']) {
      expect(whereIdsComeFrom(kind)).toMatch(/^The service cannot list .+ web console/)
    }
    // Kinds this app lists say where instead; a kind not in the table has no sentence.
    expect(whereIdsComeFrom('certificate')).toMatch(
      /^The Certificates screen lists the certificates/,
    )
    expect(whereIdsComeFrom('no-such-kind')).toBeNull()
  })
})
