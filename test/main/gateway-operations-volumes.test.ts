import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../src/sandbox'
import type { ChannelOutput, Profile } from '../../src/shared/bridge'
import type { TestDesk } from '../support/desk'
import { openGatewayDesk, type GatewayDesk } from '../support/gateway-desk'
import { waitForValue } from '../support/wait-for'

/*
 * Op 15 as a real deployment answers it (the gateway flavour): the `.tar.gz` itself, no JSON
 * around it. The app writes the very bytes the service sent, named `<volume>.tar.gz`, with
 * their size and SHA-256 in the transfers log. Run under scripts/with-keyring.mjs.
 */

type Transfer = ChannelOutput<'volumes.export'>

let gateway: GatewayDesk
let sandbox: RunningSandbox
let desk: TestDesk
let profile: Profile
const finished = new Map<string, Transfer>()

beforeAll(async () => {
  gateway = await openGatewayDesk('gateway-volumes')
  ;({ sandbox, desk, profile } = gateway)
  desk.desk.onEvent((event, payload) => {
    if (event !== 'transfers.finished') return
    const transfer = payload as Transfer
    finished.set(transfer.id, transfer)
  })
}, 120_000)

afterAll(() => gateway?.close())

describe('volume export answered with the raw .tar.gz', () => {
  it('downloads the archive the service sent, with its size and SHA-256', async () => {
    const seed = (await fetch(new URL('/__sandbox/seed', sandbox.url), {
      headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
    }).then((response) => response.json())) as {
      volumes: { nodeId: string; name: string; sizeBytes: number }[]
    }
    const volume = seed.volumes.find((candidate) => candidate.name === 'shop-uploads')!
    // What the service sends: the archive itself.
    const direct = await fetch(
      new URL(`/api/docker/nodes/${volume.nodeId}/volumes/${volume.name}/export`, sandbox.url),
      { headers: { authorization: `Bearer ${sandbox.tokens.admin}` } },
    )
    expect(direct.headers.get('content-type')).toBe('application/gzip')
    const sent = Buffer.from(await direct.arrayBuffer())
    const sentSha256 = createHash('sha256').update(sent).digest('hex')

    const started = await desk.value<Transfer>('volumes.export', {
      profileId: profile.id,
      nodeId: volume.nodeId,
      name: volume.name,
    })
    const ended = await waitForValue(() => finished.get(started.id), {
      what: 'the volume export to finish',
    })
    expect(ended, ended.errorMessage ?? '').toMatchObject({
      state: 'completed',
      bytesDone: sent.length,
      sha256: sentSha256,
    })
    expect(path.basename(ended.destination ?? '')).toBe('shop-uploads.tar.gz')
    const written = await readFile(ended.destination ?? '')
    expect(written.equals(sent)).toBe(true)
    expect(written.length).toBe(volume.sizeBytes)
    // The volume is among the profile's known objects, as any answer's objects are.
    const known = await desk.value<{ id: string; kind: string }[]>('knownObjects.search', {
      profileId: profile.id,
      kind: 'volume',
      text: 'shop-uploads',
    })
    expect(known.map((object) => object.id)).toContain('shop-uploads')
  })

  it('names a volume the node does not have as not found', async () => {
    const seed = (await fetch(new URL('/__sandbox/seed', sandbox.url), {
      headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
    }).then((response) => response.json())) as { volumes: { nodeId: string }[] }
    const failure = await desk.failure('volumes.export', {
      profileId: profile.id,
      nodeId: seed.volumes[0]!.nodeId,
      name: 'no-such-volume',
    })
    expect(failure.code).toMatch(/NOT_FOUND/)
  })
})
