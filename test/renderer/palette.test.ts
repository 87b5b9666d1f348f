import { describe, expect, it } from 'vitest'
import { OPERATION_NAMES, operations, pathParamNames } from '../../src/shared/api'
import {
  bestMatchIndex,
  operationRequestOf,
  OPERATION_ROUTES,
  paletteGroups,
  PALETTE_ENTRIES,
  searchPalette,
  type PaletteMatch,
} from '../../src/renderer/src/app/palette-entries'
import { ROUTES } from '../../src/renderer/src/app/routes'

const here = { route: 'sessions' as const, params: {} }

describe('command palette entries', () => {
  it('hold every screen and exactly the 22 operations of the contract', () => {
    const screens = PALETTE_ENTRIES.filter((entry) => entry.kind === 'screen')
    const ops = PALETTE_ENTRIES.flatMap((entry) => (entry.kind === 'operation' ? [entry] : []))
    expect(screens.map((entry) => entry.route)).toEqual(ROUTES)
    expect(ops.map((entry) => entry.operation)).toEqual(OPERATION_NAMES)
    expect(OPERATION_NAMES).toHaveLength(22)
    for (const entry of ops) {
      expect(entry.title).toBe(operations[entry.operation].summary)
      expect(entry.idParams).toEqual(pathParamNames(operations[entry.operation].path))
      expect(ROUTES).toContain(OPERATION_ROUTES[entry.operation])
    }
  })

  it('finds entries by every word of the query, in any order and case', () => {
    const found = searchPalette('MIGRATION resolve', here)
    // The operation, whose title holds both words, is the best match: its group comes first.
    expect(found.map((match) => match.entry.key)).toEqual([
      'operation:resolveMigration',
      'screen:migrations',
    ])
    expect(bestMatchIndex(found)).toBe(0)
    expect(searchPalette('', here)).toHaveLength(ROUTES.length + 22)
    expect(searchPalette('no such thing', here)).toEqual([])
  })

  it('shows the best match first, so the highlighted entry is the top one', () => {
    // "exp": the export operations' titles start with it; the Volumes screen only holds it.
    const found = searchPalette('exp', here)
    expect(bestMatchIndex(found)).toBe(0)
    expect(found[0]?.entry.key).toBe('operation:exportCertificate')
    expect(paletteGroups(found).map((group) => group.label)).toEqual(['Operations', 'Screens'])
    expect(paletteGroups(found)[1]?.offset).toBe(
      found.filter((match) => match.entry.kind === 'operation').length,
    )
    // The screen named by the word leads its operations.
    const tie = searchPalette('sessions', here)
    expect(tie[0]?.entry.key).toBe('screen:sessions')
    expect(bestMatchIndex(tie)).toBe(0)
  })

  it('prefills typed ids, in the order of the path parameters', () => {
    const node = '11111111-1111-4111-8111-111111111111'
    const deployment = '22222222-2222-4222-8222-222222222222'
    const match = searchPalette(`branch head ${node} ${deployment}`, here).find(
      (candidate) => candidate.entry.kind === 'operation',
    )
    expect(match?.entry.route).toBe('deployments')
    expect(match?.params).toEqual({
      op: 'resolveDeploymentSource',
      nodeId: node,
      deploymentId: deployment,
    })
  })

  it('prefills the ids the current screen already has for its own operations', () => {
    const id = '33333333-3333-4333-8333-333333333333'
    const onMigrations = { route: 'migrations' as const, params: { id } }
    const isOperation = (candidate: PaletteMatch) => candidate.entry.kind === 'operation'
    const match = searchPalette('resolve migration', onMigrations).find(isOperation)
    expect(match?.params).toEqual({ op: 'resolveMigration', id })
    const elsewhere = searchPalette('cancel copy job', onMigrations).find(isOperation)
    expect(elsewhere?.params).toEqual({ op: 'cancelCopyJob' })
  })
})

describe('the request an operation entry makes of its screen', () => {
  const id = '44444444-4444-4444-8444-444444444444'
  const routeId = '55555555-5555-4555-8555-555555555555'

  it('reads back, for every operation with ids, exactly what its palette entry wrote', () => {
    const ops = PALETTE_ENTRIES.flatMap((entry) => (entry.kind === 'operation' ? [entry] : []))
    const withIds = ops.filter((entry) => entry.idParams.length > 0)
    expect(withIds.map((entry) => entry.operation)).toEqual(
      OPERATION_NAMES.filter((name) => pathParamNames(operations[name].path).length > 0),
    )
    for (const entry of withIds) {
      const typed = entry.idParams.map((_, index) => `${index + 6}`.repeat(8) + id.slice(8))
      const match = searchPalette(`${entry.title} ${typed.join(' ')}`, here).find(
        (candidate) => candidate.entry.key === entry.key,
      )
      if (!match) throw new Error(`no match for ${entry.operation}`)
      expect(operationRequestOf(match.params, [entry.operation])).toEqual({
        operation: entry.operation,
        ids: Object.fromEntries(entry.idParams.map((name, index) => [name, typed[index]])),
      })
    }
  })

  it('is only for the operations the screen performs, and names only their path parameters', () => {
    const params = { op: 'retryProxyRoute', id, routeId, search: 'x' }
    expect(operationRequestOf(params, ['retryProxyRoute'])).toEqual({
      operation: 'retryProxyRoute',
      ids: { id, routeId },
    })
    expect(operationRequestOf(params, ['cancelCopyJob'])).toBeNull()
    expect(operationRequestOf({ id }, ['retryProxyRoute'])).toBeNull()
    expect(operationRequestOf({ op: 'noSuchOperation', id }, ['retryProxyRoute'])).toBeNull()
  })

  it('leaves out ids given empty, and asks without ids when none is given', () => {
    expect(
      operationRequestOf({ op: 'retryProxyRoute', id: ' ', routeId }, ['retryProxyRoute']),
    ).toEqual({ operation: 'retryProxyRoute', ids: { routeId } })
    expect(operationRequestOf({ op: 'resolveIncident' }, ['resolveIncident'])).toEqual({
      operation: 'resolveIncident',
      ids: {},
    })
  })
})
