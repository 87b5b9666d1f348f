import { describe, expect, it } from 'vitest'
import { deepLinkFromArgv, deepLinkHash, parseDeepLink } from '../../src/main/shell/deep-link'

const id = '6f1c2f6e-0d8b-4a8e-9d3f-2b1a7c9e4d10'

describe('infradesk:// deep links', () => {
  it('reads a migration resolve link', () => {
    expect(parseDeepLink(`infradesk://migrations/${id}/resolve`)).toEqual({
      kind: 'resolveMigration',
      id,
    })
    expect(parseDeepLink(`INFRADESK://migrations/${id}/resolve/`)).toEqual({
      kind: 'resolveMigration',
      id,
    })
    expect(parseDeepLink('infradesk://migrations/mig%20one/resolve')).toEqual({
      kind: 'resolveMigration',
      id: 'mig one',
    })
  })

  it('refuses anything else', () => {
    for (const bad of [
      'https://migrations/x/resolve',
      'infradesk://migrations//resolve',
      'infradesk://migrations/x',
      'infradesk://migrations/x/resolve/now',
      'infradesk://migrations/x/cancel',
      'infradesk://certificates/x/resolve',
      'infradesk://migrations/a%2Fb/resolve',
      'infradesk://migrations/%00/resolve',
      'infradesk://migrations/%E0%A4%A/resolve',
      `infradesk://migrations/${id}/resolve?side=target`,
      `infradesk://migrations/${id}/resolve#x`,
      `infradesk://user:pw@migrations/${id}/resolve`,
      `infradesk://migrations/${'x'.repeat(201)}/resolve`,
      'not a url',
    ]) {
      expect(parseDeepLink(bad), bad).toBeNull()
    }
  })

  it('finds the link among command-line arguments, and routes it to the dialog', () => {
    const argv = [
      '/opt/Infradesk/infradesk',
      '--no-sandbox',
      `infradesk://migrations/${id}/resolve`,
    ]
    const link = deepLinkFromArgv(argv)
    expect(link).toEqual({ kind: 'resolveMigration', id })
    expect(deepLinkHash({ kind: 'resolveMigration', id: 'a b&c' })).toBe('#/migrations?id=a+b%26c')
    expect(deepLinkFromArgv(['/opt/Infradesk/infradesk', 'infradesk://nope'])).toBeNull()
  })
})

describe('ids with format characters', () => {
  it.each(['\u202e', '\u200b', '\u2066', '\ufeff', '\u00ad'])(
    'refuses an id holding U+%s, as it refuses control characters',
    (char) => {
      const raw = `infradesk://migrations/${encodeURIComponent(`${id.slice(0, 8)}${char}${id.slice(8)}`)}/resolve`
      expect(parseDeepLink(raw)).toBeNull()
      expect(
        parseDeepLink(`infradesk://migrations/${encodeURIComponent(`INC-1${char}`)}/resolve`),
      ).toBeNull()
    },
  )
})
