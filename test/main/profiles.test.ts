import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ServiceError } from '../../src/main/api'
import { createProfileStore } from '../../src/main/profiles'
import type { ProfileFieldsInput } from '../../src/main/profiles'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/* The profile store against a real JSON file in a temporary folder. */

let temp: TempDir
let file: string

beforeEach(async () => {
  temp = await makeTempDir('infradesk-profiles')
  file = path.join(temp.dir, 'profiles.json')
})

afterEach(async () => {
  await temp.remove()
})

const production: ProfileFieldsInput = {
  name: 'Production',
  baseUrl: 'https://ims.example.com/api-root',
  color: '#dc2626',
  protected: true,
  kind: 'service',
}
const sandbox: ProfileFieldsInput = {
  name: 'Local sandbox',
  baseUrl: 'http://127.0.0.1:4010',
  color: '#2563eb',
  protected: false,
  kind: 'sandbox',
}

describe('profile store', () => {
  it('round-trips profiles and the active one across a reopen', () => {
    const store = createProfileStore(file)
    expect(store.list()).toEqual([])
    expect(store.activeId()).toBeNull()
    const prod = store.add(production)
    const local = store.add(sandbox)
    expect(prod).toMatchObject({
      ...production,
      id: expect.any(String),
      createdAt: expect.any(Number),
    })
    expect(prod.id).not.toBe(local.id)
    store.setActive(local.id)
    store.update(prod.id, { name: 'Prod EU', protected: false })

    const again = createProfileStore(file)
    expect(again.notices).toEqual([])
    expect(again.list()).toEqual([{ ...prod, name: 'Prod EU', protected: false }, local])
    expect(again.get(local.id)).toEqual(local)
    expect(again.activeId()).toBe(local.id)

    again.remove(local.id)
    expect(again.activeId()).toBeNull()
    expect(
      createProfileStore(file)
        .list()
        .map((p) => p.id),
    ).toEqual([prod.id])
  })

  it('returns copies, so callers cannot change the store behind its back', () => {
    const store = createProfileStore(file)
    const added = store.add(production)
    added.name = 'changed'
    store.list()[0]!.name = 'changed too'
    expect(store.get(added.id)?.name).toBe('Production')
  })

  it('writes atomically: no temp files remain and the file is always whole JSON', () => {
    const store = createProfileStore(file)
    for (let i = 0; i < 20; i += 1) {
      store.add({ ...production, name: `Profile ${i}` })
      expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow()
    }
    expect(readdirSync(temp.dir)).toEqual(['profiles.json'])
  })

  it('removes temp files a crash left behind, and only those', () => {
    writeFileSync(path.join(temp.dir, '.profiles.json.123.abcdef.tmp'), '{"half":')
    writeFileSync(path.join(temp.dir, 'other.tmp'), 'not ours')
    createProfileStore(file)
    expect(readdirSync(temp.dir).sort()).toEqual(['other.tmp'])
  })

  it('refuses invalid fields, unknown ids and any token field', () => {
    const store = createProfileStore(file)
    const attempt = (fields: unknown) => {
      try {
        store.add(fields as ProfileFieldsInput)
      } catch (error) {
        return error
      }
      return null
    }
    const withToken = attempt({ ...production, token: 'secret-token-value' })
    expect(withToken).toBeInstanceOf(ServiceError)
    expect(withToken).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: ['token'] })],
    })
    expect(attempt({ ...production, baseUrl: 'ftp://example.com' })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: ['baseUrl'] })],
    })
    expect(attempt({ ...production, name: '   ' })).toMatchObject({ code: 'VALIDATION_ERROR' })

    const added = store.add(production)
    expect(() =>
      store.update(added.id, { token: 'secret-token-value' } as unknown as ProfileFieldsInput),
    ).toThrow(ServiceError)
    expect(() => store.update('missing', { name: 'x' })).toThrow(/No profile/)
    expect(() => store.setActive('missing')).toThrow(/No profile/)
    expect(() => store.remove('missing')).toThrow(/No profile/)

    expect(readFileSync(file, 'utf8')).not.toContain('secret-token-value')
    expect(readFileSync(file, 'utf8')).not.toMatch(/token/i)
  })

  it('moves a file that is not JSON aside, with a notice, and starts empty', () => {
    writeFileSync(file, '{"version":1,"profiles":[{"id":')
    const store = createProfileStore(file)
    expect(store.list()).toEqual([])
    expect(store.notices).toHaveLength(1)
    expect(store.notices[0]).toMatchObject({ level: 'warning' })
    const aside = readdirSync(temp.dir).find((name) => name.startsWith('profiles.json.corrupt-'))
    expect(aside).toBeDefined()
    expect(store.notices[0]!.message).toContain(aside!)
    expect(readFileSync(path.join(temp.dir, aside!), 'utf8')).toBe(
      '{"version":1,"profiles":[{"id":',
    )

    // The store works from scratch and writes a fresh file.
    store.add(production)
    expect(createProfileStore(file).list()).toHaveLength(1)
  })

  it('moves aside a file of the wrong shape, including one that carries a token', () => {
    const good = createProfileStore(file)
    const added = good.add(production)
    const content = JSON.parse(readFileSync(file, 'utf8')) as { profiles: object[] }
    content.profiles[0] = { ...content.profiles[0], token: 'leaked' }
    writeFileSync(file, JSON.stringify(content))

    const store = createProfileStore(file)
    expect(store.get(added.id)).toBeUndefined()
    expect(store.notices[0]?.message).toMatch(/token/)
    expect(readdirSync(temp.dir).some((name) => name.startsWith('profiles.json.corrupt-'))).toBe(
      true,
    )
  })

  it('drops a dangling active id without losing the profiles', () => {
    const store = createProfileStore(file)
    const added = store.add(production)
    const content = JSON.parse(readFileSync(file, 'utf8')) as { activeId: string | null }
    content.activeId = 'gone'
    writeFileSync(file, JSON.stringify(content))
    const again = createProfileStore(file)
    expect(again.notices).toEqual([])
    expect(again.activeId()).toBeNull()
    expect(again.get(added.id)).toBeDefined()
  })
})
