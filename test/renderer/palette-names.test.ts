import { describe, expect, it } from 'vitest'
import type { KnownObject } from '../../src/shared/bridge/channels/known-objects'
import { searchPalette } from '../../src/renderer/src/app/palette-entries'
import {
  lookupKey,
  namedMatches,
  namedRequests,
  unknownNameNote,
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

  it('offers nothing without a name', () => {
    expect(namedRequests('export certificate').map((r) => r.entry.operation)).not.toContain(
      'exportCertificate',
    )
  })
})

// `export certificate nosuch-name` and `resolve migration foo` said only "Nothing matches": the
// user could not tell whether the verb or the name was wrong.
describe('a name no object is known by', () => {
  it('still offers the operation the words said, without an id, saying the name is unknown', () => {
    const requests = namedRequests('export certificate nosuch-name')
    const shown = withNamedMatches(
      searchPalette('export certificate nosuch-name', here),
      namedMatches(requests, lookedUp(requests, [])),
    )
    expect(shown.map((match) => match.params)).toEqual([{ op: 'exportCertificate' }])
    expect(shown[0]?.entry.title).toBe(
      'Export a certificate, PEM chain, private key, or PEM bundle',
    )
    expect(shown[0]?.entry.detail).toBe(
      'No certificate named “nosuch-name” is known to this profile · Certificates',
    )
    expect(unknownNameNote(shown)).toBe(
      'No certificate named “nosuch-name” is known to this profile. The Certificates screen ' +
        'lists the certificates (select one: its details show its id), or run infradesk certs list.',
    )

    const migration = namedRequests('resolve migration foo')
    const resolve = withNamedMatches([], namedMatches(migration, lookedUp(migration, [])))
    expect(resolve.map((match) => match.params)).toEqual([{ op: 'resolveMigration' }])
    expect(unknownNameNote(resolve)).toBe(
      'No migration named “foo” is known to this profile. The service cannot list migrations: ' +
        'open one in the service’s web console and paste its link (or its id), or type a name ' +
        'this app has seen.',
    )
  })

  it('keeps the ids typed, and comes after a value taken as typed', () => {
    const typed = namedRequests(`retry route ${HOST_ID} nosuch`)
    const [retry] = withNamedMatches([], namedMatches(typed, lookedUp(typed, [])))
    expect(retry?.params).toEqual({ op: 'retryProxyRoute', id: HOST_ID })

    // "export": a certificate's or a volume's; the volume's name is taken as typed.
    const either = namedRequests('export nosuch')
    const shown = withNamedMatches([], namedMatches(either, lookedUp(either, [])))
    expect(shown.map((match) => match.entry.title)).toEqual([
      'Export a volume: volume “nosuch”',
      'Export a certificate, PEM chain, private key, or PEM bundle',
    ])
    expect(unknownNameNote(shown)).toMatch(/^No certificate named “nosuch” is known/)
  })

  it('says nothing before the name was looked up, nor when its lookup failed', () => {
    const requests = namedRequests('export certificate nosuch-name')
    expect(namedMatches(requests, new Map())).toEqual([])
  })

  it('is not offered beside entries that hold every word, or an object found by the name', () => {
    // "resolve migration" is the operation, not also "no incident named “migration”".
    const resolve = namedRequests('resolve migration')
    const shown = withNamedMatches(
      searchPalette('resolve migration', here),
      namedMatches(resolve, lookedUp(resolve, [])),
    )
    expect(shown[0]?.entry.key).toBe('operation:resolveMigration')
    expect(shown.filter((match) => match.unknownName !== undefined)).toEqual([])
    expect(unknownNameNote(shown)).toBeNull()

    // "resolve foo": an incident of that name is found; no migration named so is not said.
    const foo = namedRequests('resolve foo')
    const found = withNamedMatches(
      [],
      namedMatches(foo, lookedUp(foo, [known('incident', 'inc-1', 'foo')])),
    )
    expect(found[0]?.params).toEqual({ op: 'resolveIncident', id: 'inc-1' })
    expect(found.filter((match) => match.unknownName !== undefined)).toEqual([])
  })

  it('leaves "Nothing matches" to words that match no operation', () => {
    const words = 'zqxj vwkp'
    expect(namedRequests(words)).toEqual([])
    expect(withNamedMatches(searchPalette(words, here), [])).toEqual([])
  })
})

// A newcomer's pass: `export certificate payments` offered "Export a volume: certificate
// payments", a volume's export with the certificate's words taken as a volume's name.
describe('a verb, a kind and a name', () => {
  it('offers only the operations of the kind named, worded with the object found', () => {
    const requests = namedRequests('export certificate payments')
    expect(requests.map((request) => request.entry.operation)).toEqual(['exportCertificate'])
    // Nothing known by that name: the certificate's export without an id, not a volume of
    // that name.
    expect(
      namedMatches(requests, lookedUp(requests, [])).map((match) => match.unknownName),
    ).toEqual([{ kind: 'certificate', name: 'payments' }])
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
