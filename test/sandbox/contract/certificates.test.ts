import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Resource } from '../../../src/shared/api'
import { validationIssuesOf } from '../../../src/shared/api'
import {
  callOperation,
  PERSONALITIES,
  sandboxForThisFile,
  UNKNOWN_UUID,
} from '../../support/sandbox-process'
import { expectError, expectSuccess, expectValidationError } from '../../support/answers'
import type { CallResult, SandboxProcess } from '../../support/sandbox-process'
import { makeSelfSigned, makeTempDir, openssl, readX509 } from '../../support/tools'
import type { TempDir } from '../../support/tools'

/*
 * Operations 16 (list), 7 (upload) and 10 (move certificates to a folder). Op 16's paging is
 * left open by the spec, so its tests run against both personalities: the default sandbox
 * (`meta`, 50 a page, at most 500) and the variant (no `meta`, every page capped at 25).
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true })
let temp: TempDir

beforeAll(async () => {
  temp = await makeTempDir('infradesk-certificates')
})
afterAll(async () => {
  await temp?.remove()
})

async function listCertificates(query: Record<string, string> = {}, on: SandboxProcess = sandbox) {
  return expectSuccess('listCertificates', await callOperation(on, 'listCertificates', { query }))
}

/**
 * Every certificate the service holds, system ones included, read page by page until an empty
 * page: a page shorter than the limit asked ends nothing, since a service may cap the size.
 */
async function allCertificates(on: SandboxProcess = sandbox): Promise<Resource[]> {
  return everyPage({ showSystem: 'true' }, on)
}

/** Every page of one query (500 asked a page), until an empty one. */
async function everyPage(
  query: Record<string, string>,
  on: SandboxProcess = sandbox,
): Promise<Resource[]> {
  const found: Resource[] = []
  for (let page = 1; page < 100; page += 1) {
    const body = await listCertificates({ ...query, limit: '500', page: String(page) }, on)
    if (body.data.length === 0) return found
    found.push(...body.data)
  }
  throw new Error('op 16 never returned an empty page')
}

function byId(certificates: Resource[], id: string): Resource {
  const certificate = certificates.find((candidate) => candidate.id === id)
  if (!certificate) throw new Error(`certificate ${id} is not listed`)
  return certificate
}

function idsOf(certificates: Resource[]): string[] {
  return certificates.map((certificate) => certificate.id as string)
}

/** 422 UNPROCESSABLE_ENTITY whose details name the field at fault. */
function expectUnprocessable(response: CallResult, fieldPath: string[]) {
  const body = expectError(response, 'UNPROCESSABLE_ENTITY')
  expect(validationIssuesOf(body.details).map((issue) => issue.path)).toContainEqual(fieldPath)
}

describe.each(PERSONALITIES)(
  'op 16: GET /api/ssl-certificates ($personality)',
  ({ variant, args }) => {
    // The default personality shares the file's sandbox; the variant gets its own process.
    const on = variant ? sandboxForThisFile({ resetBeforeEach: true, args }) : sandbox
    const list = (query: Record<string, string> = {}) => listCertificates(query, on)
    const all = () => allCertificates(on)
    const every = (query: Record<string, string>) => everyPage(query, on)

    it('pages from 1: default meta { page, limit, total } and 50 a page; variant 25, no meta', async () => {
      const body = await list()
      const total = (await all()).filter((item) => item['isSystem'] !== true).length
      if (variant) {
        expect(body).not.toHaveProperty('meta')
        expect(body.data).toHaveLength(Math.min(25, total))
      } else {
        expect(body.meta).toEqual(expect.objectContaining({ page: 1, limit: 50, total }))
        expect(body.data).toHaveLength(Math.min(50, total))
      }
      for (const certificate of body.data) {
        expect(certificate.id).toEqual(expect.any(String))
        expect(certificate.name).toEqual(expect.any(String))
      }
    })

    it('walks every certificate exactly once across pages, then answers an empty page', async () => {
      const everything = idsOf(await all())
      const seen: string[] = []
      for (let page = 1; page < 100; page += 1) {
        const body = await list({ limit: '7', page: String(page), showSystem: 'true' })
        if (!variant) {
          expect(body.meta).toEqual(
            expect.objectContaining({ page, limit: 7, total: everything.length }),
          )
        }
        if (body.data.length === 0) break
        expect(body.data.length).toBeLessThanOrEqual(7)
        seen.push(...idsOf(body.data))
      }
      expect(everything.length).toBeGreaterThan(14)
      expect(seen).toHaveLength(everything.length)
      expect(new Set(seen)).toEqual(new Set(everything))
    })

    it('never returns more than 500 per page', async () => {
      const response = await callOperation(on, 'listCertificates', {
        query: { limit: '100000' },
      })
      if (response.status === 400) {
        expectValidationError(response, ['limit'])
      } else {
        const body = expectSuccess('listCertificates', response)
        expect(body.data.length).toBeLessThanOrEqual(variant ? 25 : 500)
        if (!variant) expect(body.meta?.limit).toBeLessThanOrEqual(500)
      }
    })

    it('hides system certificates unless showSystem=true', async () => {
      const { system } = on.seed.certificates
      const hidden = idsOf(await every({}))
      expect(hidden.filter((id) => system.includes(id))).toEqual([])
      const explicitFalse = idsOf(await every({ showSystem: 'false' }))
      expect(explicitFalse.sort()).toEqual([...hidden].sort())
      // null is allowed by the spec and means "the default".
      const asNull = idsOf(await every({ showSystem: 'null' }))
      expect(asNull.sort()).toEqual([...hidden].sort())

      const shown = idsOf(await all())
      expect(shown).toEqual(expect.arrayContaining(system))
      expect(shown.length).toBe(hidden.length + system.length)
    })

    it('lists every seeded certificate: ~40 of them, a few expired', async () => {
      const shown = idsOf(await all())
      expect(shown).toEqual(expect.arrayContaining(on.seed.certificates.all))
      expect(shown).toEqual(expect.arrayContaining(on.seed.certificates.expired))
      expect(shown.length).toBeGreaterThanOrEqual(30)
    })

    /**
     * Op 16 filtered by `field`: for each value the list holds, exactly the certificates that
     * have it, and as many as its `meta.total` says where meta is sent.
     */
    async function expectFilterFindsEach(field: 'type' | 'status', everything: Resource[]) {
      const values = [...new Set(everything.map((certificate) => certificate[field]))]
      expect(values.length, `several certificate ${field} values`).toBeGreaterThanOrEqual(2)
      for (const value of values) {
        expect(value).toEqual(expect.any(String))
        const query = { [field]: value as string, showSystem: 'true' }
        const expected = everything.filter((certificate) => certificate[field] === value)
        expect(idsOf(await every(query)).sort()).toEqual(idsOf(expected).sort())
        if (!variant) expect((await list(query)).meta?.total).toBe(expected.length)
      }
    }

    it('filters by type: only that type, and all of it', async () => {
      await expectFilterFindsEach('type', await all())
    })

    it('filters by status: only that status, and all of it; the expired ones share theirs', async () => {
      const everything = await all()
      await expectFilterFindsEach('status', everything)
      const expiredStatuses = new Set(
        on.seed.certificates.expired.map((id) => byId(everything, id).status),
      )
      expect(expiredStatuses.size).toBe(1)
    })

    it('searches: finds a certificate by part of its name, case-insensitively', async () => {
      const everything = await all()
      const target = everything.find(
        (certificate) => !on.seed.certificates.system.includes(certificate.id as string),
      )
      const name = target?.name ?? ''
      expect(name.length).toBeGreaterThan(3)
      const term = name.slice(1, -1).toUpperCase()
      const found = await every({ search: term })
      expect(idsOf(found)).toContain(target?.id)
      for (const certificate of found) {
        expect(JSON.stringify(certificate).toLowerCase()).toContain(term.toLowerCase())
      }
      const none = await list({ search: 'no-certificate-is-called-this-zq' })
      expect(none.data).toEqual([])
      if (!variant) expect(none.meta?.total).toBe(0)
    })

    it('combines filters with paging: default total counts the filtered set', async () => {
      const everything = await all()
      const type = everything[0]?.type as string
      const expected = everything.filter((certificate) => certificate.type === type)
      const body = await list({ type, showSystem: 'true', limit: '1' })
      expect(body.data).toHaveLength(1)
      if (!variant) expect(body.meta?.total).toBe(expected.length)
    })

    it.each([
      [{ page: 'two' }, ['page']],
      [{ limit: 'many' }, ['limit']],
      [{ showSystem: 'maybe' }, ['showSystem']],
      [{ sort: 'name' }, ['sort']],
    ])('refuses the query %o naming %o', async (query, fieldPath) => {
      expectValidationError(await callOperation(on, 'listCertificates', { query }), fieldPath)
    })
  },
)

describe('op 7: POST /api/ssl-certificates/upload', () => {
  it('creates the certificate (201); it is then listed, in its folder, and exports as uploaded', async () => {
    const material = await makeSelfSigned(temp, 'upload-one.example.test')
    const folderId = sandbox.seed.certificateFolders[0] as string
    const response = await callOperation(sandbox, 'uploadCertificate', {
      body: { name: 'Uploaded one', folderId, ...material },
    })
    const created = expectSuccess('uploadCertificate', response, 201).data
    expect(created.id).toEqual(expect.any(String))
    expect(created.name).toBe('Uploaded one')
    expect(sandbox.seed.certificates.all).not.toContain(created.id)

    const listed = (await listCertificates({ search: 'Uploaded one', limit: '500' })).data
    expect(idsOf(listed)).toContain(created.id)
    expect(byId(listed, created.id as string).folderId).toBe(folderId)

    // The stored certificate is the uploaded one: same fingerprint through openssl.
    const exported = expectSuccess(
      'exportCertificate',
      await callOperation(sandbox, 'exportCertificate', {
        params: { id: created.id as string },
        body: { format: 'pem' },
      }),
    ).data
    const uploadedFile = await temp.write('uploaded.pem', material.certificatePem)
    const exportedFile = await temp.write('uploaded-exported.pem', exported.content)
    expect((await readX509(exportedFile)).fingerprint).toBe(
      (await readX509(uploadedFile)).fingerprint,
    )
  })

  it('accepts no folder (folderId null or absent) and a chain', async () => {
    const root = await makeSelfSigned(temp, 'upload-chain-root.test')
    const material = await makeSelfSigned(temp, 'upload-two.example.test')
    const withNull = await callOperation(sandbox, 'uploadCertificate', {
      body: { name: 'Uploaded two', folderId: null, ...material, chainPem: root.certificatePem },
    })
    expect(expectSuccess('uploadCertificate', withNull, 201).data.id).toEqual(expect.any(String))
    const other = await makeSelfSigned(temp, 'upload-three.example.test')
    const absent = await callOperation(sandbox, 'uploadCertificate', {
      body: { name: 'Uploaded three', ...other },
    })
    expectSuccess('uploadCertificate', absent, 201)
  })

  it('409 CONFLICT for a name that already exists', async () => {
    const material = await makeSelfSigned(temp, 'upload-dup.example.test')
    const body = { name: 'Uploaded twice', ...material }
    expectSuccess(
      'uploadCertificate',
      await callOperation(sandbox, 'uploadCertificate', { body }),
      201,
    )
    expectError(await callOperation(sandbox, 'uploadCertificate', { body }), 'CONFLICT')
  })

  it('409 CONFLICT for the name of a seeded certificate', async () => {
    const seeded = (await listCertificates()).data[0]
    const material = await makeSelfSigned(temp, 'upload-dup-seed.example.test')
    const response = await callOperation(sandbox, 'uploadCertificate', {
      body: { name: seeded?.name, ...material },
    })
    expectError(response, 'CONFLICT')
  })

  it('422 naming privateKeyPem when the key does not match the certificate', async () => {
    const one = await makeSelfSigned(temp, 'upload-mismatch-a.test')
    const two = await makeSelfSigned(temp, 'upload-mismatch-b.test')
    const response = await callOperation(sandbox, 'uploadCertificate', {
      body: {
        name: 'Mismatch',
        certificatePem: one.certificatePem,
        privateKeyPem: two.privateKeyPem,
      },
    })
    expectUnprocessable(response, ['privateKeyPem'])
  })

  it('422 naming the field whose PEM does not parse', async () => {
    const good = await makeSelfSigned(temp, 'upload-garbage.test')
    const garbage =
      '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n'
    expectUnprocessable(
      await callOperation(sandbox, 'uploadCertificate', {
        body: { name: 'Garbage cert', certificatePem: garbage, privateKeyPem: good.privateKeyPem },
      }),
      ['certificatePem'],
    )
    expectUnprocessable(
      await callOperation(sandbox, 'uploadCertificate', {
        body: { name: 'Garbage key', certificatePem: good.certificatePem, privateKeyPem: 'no key' },
      }),
      ['privateKeyPem'],
    )
    expectUnprocessable(
      await callOperation(sandbox, 'uploadCertificate', {
        body: { name: 'Garbage chain', ...good, chainPem: garbage },
      }),
      ['chainPem'],
    )
    // Nothing was stored by the refused uploads.
    expect((await listCertificates({ search: 'Garbage' })).data).toEqual([])
  })

  it('404 for a folder that does not exist', async () => {
    const material = await makeSelfSigned(temp, 'upload-nofolder.test')
    const response = await callOperation(sandbox, 'uploadCertificate', {
      body: { name: 'No folder', folderId: UNKNOWN_UUID, ...material },
    })
    expectError(response, 'NOT_FOUND')
  })

  it.each([
    ['name missing', { name: undefined }, ['name']],
    ['name not a string', { name: 42 }, ['name']],
    ['folderId not a uuid', { folderId: 'folder-1' }, ['folderId']],
    ['certificatePem missing', { certificatePem: undefined }, ['certificatePem']],
    ['privateKeyPem missing', { privateKeyPem: undefined }, ['privateKeyPem']],
    ['chainPem not a string', { chainPem: ['x'] }, ['chainPem']],
    ['an unknown field', { password: 'x' }, ['password']],
  ])('400 when %s, naming the field', async (_label, change, fieldPath) => {
    const body = {
      name: 'Validation',
      certificatePem: 'pem',
      privateKeyPem: 'pem',
      ...change,
    }
    expectValidationError(await callOperation(sandbox, 'uploadCertificate', { body }), fieldPath)
  })

  it('is undone by POST /__sandbox/reset', async () => {
    const material = await makeSelfSigned(temp, 'upload-reset.test')
    expectSuccess(
      'uploadCertificate',
      await callOperation(sandbox, 'uploadCertificate', {
        body: { name: 'Reset me', ...material },
      }),
      201,
    )
    await sandbox.reset()
    expect((await listCertificates({ search: 'Reset me' })).data).toEqual([])
  })
})

describe('op 10: POST /api/certificates/folders/move-certificates', () => {
  it('moves certificates into a folder and back to none; op 16 shows it', async () => {
    const [first, second] = sandbox.seed.certificates.all
    const [folderA, folderB] = sandbox.seed.certificateFolders
    const ids = [first as string, second as string]
    for (const folderId of [folderA, folderB, null]) {
      const response = await callOperation(sandbox, 'moveCertificates', {
        body: { ids, folderId },
      })
      expectSuccess('moveCertificates', response)
      const everything = await allCertificates()
      for (const id of ids) expect(byId(everything, id).folderId ?? null).toBe(folderId ?? null)
    }
  })

  it('404 for an unknown certificate or folder, and moves nothing', async () => {
    const id = sandbox.seed.certificates.all[0] as string
    const before = byId(await allCertificates(), id).folderId
    const folderId = sandbox.seed.certificateFolders.find((folder) => folder !== before) as string
    expectError(
      await callOperation(sandbox, 'moveCertificates', {
        body: { ids: [id, 'no-such-certificate'], folderId },
      }),
      'NOT_FOUND',
    )
    expectError(
      await callOperation(sandbox, 'moveCertificates', {
        body: { ids: [id], folderId: UNKNOWN_UUID },
      }),
      'NOT_FOUND',
    )
    expect(byId(await allCertificates(), id).folderId).toBe(before)
  })

  it.each([
    ['ids empty', { ids: [] }, ['ids']],
    ['ids missing', { ids: undefined }, ['ids']],
    ['an id not a string', { ids: ['a', 7] }, ['ids', '1']],
    ['folderId not a uuid', { folderId: 'inbox' }, ['folderId']],
    ['folderId missing', { folderId: undefined }, ['folderId']],
  ])('400 when %s, naming the field', async (_label, change, fieldPath) => {
    const body = {
      ids: [sandbox.seed.certificates.all[0]],
      folderId: sandbox.seed.certificateFolders[0],
      ...change,
    }
    expectValidationError(await callOperation(sandbox, 'moveCertificates', { body }), fieldPath)
  })
})

describe('certificate material', () => {
  it('is real X.509: a seeded certificate exports as PEM that openssl reads', async () => {
    const id = sandbox.seed.certificates.all[0] as string
    const exported = expectSuccess(
      'exportCertificate',
      await callOperation(sandbox, 'exportCertificate', {
        params: { id },
        body: { format: 'pem' },
      }),
    ).data
    const file = await temp.write('seeded.pem', exported.content)
    expect(await openssl(['x509', '-in', file, '-noout', '-subject'])).toMatch(/subject=/)
  })
})
