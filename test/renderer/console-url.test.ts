import { describe, expect, it } from 'vitest'
import { idFromPastedLink, idsInConsoleLink } from '../../src/renderer/src/lib/console-url'

/* Ids out of a pasted link of the service's web console. */

const HOST = 'a1b2c3d4-0000-4000-8000-00000000000a'
const ROUTE = 'a1b2c3d4-0000-4000-8000-00000000000b'
const NODE = 'a1b2c3d4-0000-4000-8000-00000000000c'
const DEPLOYMENT = 'a1b2c3d4-0000-4000-8000-00000000000d'
const MIGRATION = 'A1B2C3D4-0000-4000-8000-00000000000E'

describe('ids in a console link', () => {
  it('names each id by its place in the API-shaped path, with or without /api', () => {
    expect(
      idsInConsoleLink(`https://ims.example.com/proxy-hosts/${HOST}/additional-routes/${ROUTE}`),
    ).toEqual([
      { kind: 'proxy-host', id: HOST },
      { kind: 'proxy-route', id: ROUTE },
    ])
    expect(
      idsInConsoleLink(
        `https://ims.example.com/api/docker/nodes/${NODE}/deployments/${DEPLOYMENT}`,
      ),
    ).toEqual([
      { kind: 'node', id: NODE },
      { kind: 'deployment', id: DEPLOYMENT },
    ])
    expect(
      idsInConsoleLink(`https://ims.example.com/docker/nodes/${NODE}/volumes/pg%20data/export`),
    ).toEqual([
      { kind: 'node', id: NODE },
      { kind: 'volume', id: 'pg data' },
    ])
    expect(
      idsInConsoleLink('https://ims.example.com/logging/schemas/by-slug/nginx-access'),
    ).toEqual([{ kind: 'logging-schema', id: 'nginx-access' }])
    expect(idsInConsoleLink(`https://ims.example.com/ssl-certificates/folders/${HOST}`)).toEqual([
      { kind: 'certificate-folder', id: HOST },
    ])
  })

  it('reads a client-side route after #, query ids and any other UUID in the path', () => {
    expect(idsInConsoleLink(`https://ims.example.com/#/docker/migrations/${MIGRATION}`)).toEqual([
      { kind: 'migration', id: MIGRATION },
    ])
    expect(idsInConsoleLink(`https://ims.example.com/apps/${HOST}?environmentId=${NODE}`)).toEqual([
      { kind: 'app', id: HOST },
      { kind: 'app-environment', id: NODE },
    ])
    expect(idsInConsoleLink(`http://console.local/things/${HOST}/view`)).toEqual([
      { kind: null, id: HOST },
    ])
    expect(idsInConsoleLink(`https://x.example/item-${HOST}`)).toEqual([{ kind: null, id: HOST }])
  })

  it('finds nothing in what is not an http(s) link', () => {
    for (const text of [
      HOST,
      'billing-api',
      `ftp://x/${HOST}`,
      `javascript:alert('${HOST}')`,
      '',
    ]) {
      expect(idsInConsoleLink(text)).toEqual([])
    }
    expect(idsInConsoleLink('https://ims.example.com/docker/nodes/not-a-uuid')).toEqual([])
  })
})

describe('what a pasted link puts in a field', () => {
  const routeLink = `https://ims.example.com/proxy-hosts/${HOST}/additional-routes/${ROUTE}`

  it('takes the id of the field kind, else the only id', () => {
    expect(idFromPastedLink(routeLink, 'proxy-host')).toBe(HOST)
    expect(idFromPastedLink(routeLink, 'proxy-route')).toBe(ROUTE)
    expect(idFromPastedLink(`https://ims.example.com/docker/migrations/${MIGRATION}`, 'node')).toBe(
      MIGRATION,
    )
    expect(idFromPastedLink(`  https://x.example/a/${HOST}  `, 'copy-job')).toBe(HOST)
  })

  it('keeps the pasted text when it is no link, or when the link does not say which id', () => {
    expect(idFromPastedLink(HOST, 'proxy-host')).toBeNull()
    expect(idFromPastedLink(routeLink, 'copy-job')).toBeNull()
  })
})
