import { describe, expect, it } from 'vitest'
import type { KnownObject } from '../../src/shared/bridge/channels/known-objects'
import { searchPalette } from '../../src/renderer/src/app/palette-entries'
import {
  lookupKey,
  namedMatches,
  namedRequests,
  withNamedMatches,
  type NamedRequest,
} from '../../src/renderer/src/app/palette-names'

/*
 * Issue 40, item 21: "export certificate payments-api" found "Nothing matches". The words of an
 * operation, then a name: the object found by that name among those the app has seen, opened
 * with its id (and its node or host where the path needs them).
 */

const here = { route: 'sessions' as const, params: {} }
const CERT_ID = '0b7e3a52-1111-4111-8111-111111111111'
const OTHER_ID = '0b7e3a52-2222-4222-8222-222222222222'
const NODE_ID = '0b7e3a52-3333-4333-8333-333333333333'
const HOST_ID = '0b7e3a52-4444-4444-8444-444444444444'

function known(kind: string, id: string, name: string | null, more: Partial<KnownObject> = {}) {
  return {
    kind,
    id,
    name,
    status: null,
    nodeId: null,
    fields: {},
    operation: 'listCertificates',
    seenAt: 1,
    ...more,
  } satisfies KnownObject
}

/** What the palette's lookups would find: every object of the kind whose name holds the text. */
function lookedUp(requests: readonly NamedRequest[], objects: readonly KnownObject[]) {
  return new Map(
    requests.map((request) => [
      lookupKey(request.target.kind, request.name),
      objects.filter(
        (object) =>
          object.kind === request.target.kind &&
          (object.name ?? '').toLowerCase().includes(request.name.toLowerCase()),
      ),
    ]),
  )
}

describe('an operation and a name in the palette', () => {
  it('finds nothing by the words alone (the search before this issue)', () => {
    expect(searchPalette('export certificate payments-api', here)).toEqual([])
  })

  it('opens the export on the certificate of that name, an exact name first', () => {
    const requests = namedRequests('export certificate payments-api')
    const exportRequest = requests.find((r) => r.entry.operation === 'exportCertificate')
    expect(exportRequest?.name).toBe('payments-api')
    const objects = [
      known('certificate', OTHER_ID, 'payments-api-old'),
      known('certificate', CERT_ID, 'payments-api'),
    ]
    const matches = namedMatches(requests, lookedUp(requests, objects))
    expect(matches[0]?.params).toEqual({ op: 'exportCertificate', id: CERT_ID })
    expect(matches[0]?.entry.title).toMatch(/^Export a certificate.*: certificate “payments-api”$/)
    expect(matches[0]?.entry.detail).toContain(`payments-api · ${CERT_ID}`)
    expect(matches[1]?.params).toEqual({ op: 'exportCertificate', id: OTHER_ID })
    // Keys differ, so each is its own option.
    expect(new Set(matches.map((match) => match.entry.key)).size).toBe(matches.length)
  })

  it('fills the node or host the path needs from what was seen of the object', () => {
    const deployments = namedRequests('branch head storefront')
    const deployment = known('deployment', 'dep-1', 'storefront', { nodeId: NODE_ID })
    const [resolve] = namedMatches(deployments, lookedUp(deployments, [deployment]))
    expect(resolve?.params).toEqual({
      op: 'resolveDeploymentSource',
      deploymentId: 'dep-1',
      nodeId: NODE_ID,
    })

    const routes = namedRequests('retry route api.example.com/v2')
    const route = known('proxy-route', 'route-1', 'api.example.com/v2', {
      fields: { proxyHostId: HOST_ID },
    })
    const [retry] = namedMatches(routes, lookedUp(routes, [route]))
    expect(retry?.params).toEqual({ op: 'retryProxyRoute', routeId: 'route-1', id: HOST_ID })
  })

  it('takes a volume name or a schema slug as typed when no object of that name is known', () => {
    const requests = namedRequests(`export volume ${NODE_ID} pgdata`)
    const matches = namedMatches(requests, new Map())
    const volume = matches.find((match) => match.params['op'] === 'exportVolume')
    expect(volume?.params).toEqual({ op: 'exportVolume', nodeId: NODE_ID, name: 'pgdata' })
    const schema = namedMatches(namedRequests('logging schema web-access'), new Map())
    expect(schema.find((match) => match.params['op'] === 'getLoggingSchema')?.params).toEqual({
      op: 'getLoggingSchema',
      slug: 'web-access',
    })
  })

  // A name taken as typed read "Export a volume: pgdata", without the noun the options on a
  // found object carry.
  it('names the kind in the option of a value taken as typed, as for an object found', () => {
    const volume = namedMatches(namedRequests(`export volume ${NODE_ID} pgdata`), new Map())
    expect(volume.map((match) => match.entry.title)).toEqual(['Export a volume: volume “pgdata”'])
    const schema = namedMatches(namedRequests('logging schema web-access'), new Map()).find(
      (match) => match.params['op'] === 'getLoggingSchema',
    )
    expect(schema?.entry.title).toBe(
      'Resolve a logging schema by slug: logging schema “web-access”',
    )
    // The same words as the option of a volume the app has seen by that name.
    const requests = namedRequests(`export volume ${NODE_ID} pgdata`)
    const seen = known('volume', 'pgdata', 'pgdata', { nodeId: NODE_ID })
    const [found] = namedMatches(requests, lookedUp(requests, [seen]))
    expect(found?.entry.title).toBe(volume[0]?.entry.title)
  })

  it('offers nothing for a name nobody has seen, and nothing without a name', () => {
    const requests = namedRequests('export certificate nothing-of-that-name')
    expect(
      namedMatches(requests, lookedUp(requests, [])).filter(
        (match) => match.params['op'] === 'exportCertificate',
      ),
    ).toEqual([])
    expect(namedRequests('export certificate').map((r) => r.entry.operation)).not.toContain(
      'exportCertificate',
    )
  })
})

// A newcomer's pass: `export certificate payments` offered "Export a volume: certificate
// payments", a volume's export with the certificate's words taken as a volume's name.
describe('a verb, a kind and a name', () => {
  it('offers only the operations of the kind named, worded with the object found', () => {
    const requests = namedRequests('export certificate payments')
    expect(requests.map((request) => request.entry.operation)).toEqual(['exportCertificate'])
    // Nothing known by that name: nothing offered, not a volume of that name.
    expect(namedMatches(requests, lookedUp(requests, []))).toEqual([])
    const found = namedMatches(
      requests,
      lookedUp(requests, [known('certificate', CERT_ID, 'payments-api')]),
    )
    expect(found.map((match) => match.entry.title)).toEqual([
      expect.stringMatching(/^Export a certificate.*: certificate “payments-api”$/),
    ])
    expect(found[0]?.params).toEqual({ op: 'exportCertificate', id: CERT_ID })
  })

  it('still offers every operation the verb fits when no kind is said', () => {
    const operationsOf = (query: string) =>
      namedRequests(query).map((request) => request.entry.operation)
    expect(operationsOf('export payments')).toEqual(
      expect.arrayContaining(['exportCertificate', 'exportVolume']),
    )
    expect(operationsOf(`export volume ${NODE_ID} certificate-store`)).toEqual(['exportVolume'])
  })
})

describe('where the named entries are shown', () => {
  it('first when no entry holds every word, after the plain matches otherwise', () => {
    const objects = [known('incident', 'inc-1', 'migration of the database')]
    const requests = namedRequests('resolve migration')
    const named = namedMatches(requests, lookedUp(requests, objects))
    expect(named[0]?.params).toEqual({ op: 'resolveIncident', id: 'inc-1' })
    const plain = searchPalette('resolve migration', here)
    const shown = withNamedMatches(plain, named)
    expect(shown[0]?.entry.key).toBe('operation:resolveMigration')
    expect(shown[plain.length]?.params).toEqual({ op: 'resolveIncident', id: 'inc-1' })

    const exports = namedRequests('export certificate payments-api')
    const found = namedMatches(
      exports,
      lookedUp(exports, [known('certificate', CERT_ID, 'payments-api')]),
    )
    expect(withNamedMatches([], found)[0]?.params).toEqual({ op: 'exportCertificate', id: CERT_ID })
  })
})
