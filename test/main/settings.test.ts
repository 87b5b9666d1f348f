import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSettingsStore, defaultSettings } from '../../src/main/settings'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/* settings.json in a real temporary folder. */

let temp: TempDir
let file: string
const defaults = defaultSettings({ downloadsDir: '/tmp/downloads-default' })

beforeEach(async () => {
  temp = await makeTempDir('infradesk-settings')
  file = path.join(temp.dir, 'settings.json')
})

afterEach(async () => {
  await temp.remove()
})

describe('settings store', () => {
  it('starts from the defaults and keeps a patch across a reopen', () => {
    const store = createSettingsStore(file, defaults)
    expect(store.get()).toEqual(defaults)
    const updated = store.update({ theme: 'dark', defaultMaxRows: 5000 })
    expect(updated).toEqual({ ...defaults, theme: 'dark', defaultMaxRows: 5000 })
    const reopened = createSettingsStore(file, defaults)
    expect(reopened.get()).toEqual(updated)
    expect(reopened.notices).toEqual([])
  })

  it('refuses an invalid patch with the field path, and changes nothing', () => {
    const store = createSettingsStore(file, defaults)
    expect(() => store.update({ requestTimeoutMs: 5 })).toThrowError(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ path: ['requestTimeoutMs'] })],
      }),
    )
    expect(store.get()).toEqual(defaults)
    expect(existsSync(file)).toBe(false)
  })

  it('tells listeners about each change', () => {
    const store = createSettingsStore(file, defaults)
    const seen: string[] = []
    const stop = store.onChange((settings) => seen.push(settings.theme))
    store.update({ theme: 'light' })
    stop()
    store.update({ theme: 'dark' })
    expect(seen).toEqual(['light'])
  })

  it('keeps the good values of a file with one bad value', () => {
    writeFileSync(file, JSON.stringify({ theme: 'purple', defaultMaxRows: 250, unknown: 1 }))
    const store = createSettingsStore(file, defaults)
    expect(store.get()).toEqual({ ...defaults, defaultMaxRows: 250 })
  })

  it('moves a file that is not JSON aside, with a notice, and starts from the defaults', () => {
    writeFileSync(file, '{ not json')
    const store = createSettingsStore(file, defaults)
    expect(store.get()).toEqual(defaults)
    expect(store.notices).toHaveLength(1)
    expect(store.notices[0]?.message).toMatch(/moved aside/)
    const aside = readdirSync(temp.dir).filter((name) => name.startsWith('settings.json.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(path.join(temp.dir, aside[0] as string), 'utf8')).toBe('{ not json')
  })
})
