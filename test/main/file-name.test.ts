import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { numberedFileName, pathInside, safeFileName } from '../../src/main/transfers/file-name'

/*
 * The file-name sanitiser with hostile names: a name from the service, a certificate or the
 * user must become one safe name inside the chosen folder, on Linux, macOS and Windows alike.
 */

const FOLDER = path.resolve('/tmp/infradesk-downloads')
const RESERVED_STEM = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i

/** What must hold for every output, whatever went in. */
function expectSafe(name: string) {
  expect(name).not.toBe('')
  expect(name).not.toBe('.')
  expect(name).not.toBe('..')
  // eslint-disable-next-line no-control-regex -- control characters are what we look for
  expect(name).not.toMatch(/[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u2028\u2029]/)
  expect(name).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/)
  expect(name).not.toMatch(/^[\s.]|[\s.]$/)
  expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255)
  // Windows reads `CON.txt` and `CON .txt` as the device CON.
  expect(name.split('.')[0]?.trimEnd()).not.toMatch(RESERVED_STEM)
  expect(path.dirname(path.resolve(FOLDER, name))).toBe(FOLDER)
  expect(path.win32.dirname(path.win32.resolve('C:\\Downloads', name))).toBe('C:\\Downloads')
  expect(pathInside(FOLDER, name)).toBe(path.join(FOLDER, name))
}

describe('safeFileName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['../../../.ssh/authorized_keys', 'authorized_keys'],
    ['/etc/shadow', 'shadow'],
    ['C:\\Windows\\System32\\drivers\\etc\\hosts', 'hosts'],
    ['..\\..\\evil.pem', 'evil.pem'],
    ['\\\\server\\share\\x.p12', 'x.p12'],
    ['file:///etc/passwd', 'passwd'],
  ])('keeps only the last component of %j', (hostile, safe) => {
    expect(safeFileName(hostile)).toBe(safe)
    expectSafe(safeFileName(hostile))
  })

  it.each(['..', '.', '', '   ', '...', '/', '\\', '../', './.', '?*?', '\u0000', '\u202e'])(
    'falls back when nothing usable is left of %j',
    (hostile) => {
      expect(safeFileName(hostile, 'certificate.pem')).toBe('certificate.pem')
      expect(safeFileName(hostile)).toBe('download')
    },
  )

  it('never uses a hostile fallback either', () => {
    expect(safeFileName('..', '../../x.pem')).toBe('x.pem')
    expect(safeFileName('..', '..')).toBe('download')
  })

  it('replaces NUL and control characters, which could end or split a name', () => {
    expect(safeFileName('cert\u0000.pem.exe')).toBe('cert_.pem.exe')
    expect(safeFileName('a\nb\rc\td\u001be\u007ff\u0085g.pem')).toBe('a_b_c_d_e_f_g.pem')
  })

  it('replaces the characters Windows refuses', () => {
    expect(safeFileName('a<b>c:d"e|f?g*h.pem')).toBe('a_b_c_d_e_f_g_h.pem')
  })

  it('removes bidirectional overrides and zero-width characters that disguise an extension', () => {
    expect(safeFileName('invoice\u202Egpj.exe')).toBe('invoicegpj.exe')
    expect(safeFileName('report\u200b.pem\ufeff')).toBe('report.pem')
  })

  it('refuses line and paragraph separators, which split a name when shown', () => {
    expectSafe(safeFileName('first\u2028second\u2029.pem'))
  })

  it('drops leading dots (no hidden files) and trailing dots and spaces (Windows drops them)', () => {
    expect(safeFileName('.bashrc')).toBe('bashrc')
    expect(safeFileName('...hidden.pem')).toBe('hidden.pem')
    expect(safeFileName('cert.pem. . ')).toBe('cert.pem')
    expect(safeFileName('  spaced.pem  ')).toBe('spaced.pem')
  })

  it.each([
    'CON',
    'con',
    'PRN.pem',
    'aux.tar.gz',
    'NUL',
    'COM1.p12',
    'lpt9.key',
    'COM¹',
    'CONIN$',
    'conout$.txt',
    'AUX.',
    'CON .txt',
    'nul  .pem',
    'LPT1 . pem',
  ])('defuses the Windows device name %j', (hostile) => {
    const safe = safeFileName(hostile)
    expectSafe(safe)
    expect(safe.startsWith('_')).toBe(true)
  })

  it('leaves ordinary names that merely start like a device name alone', () => {
    expect(safeFileName('console.pem')).toBe('console.pem')
    expect(safeFileName('auxiliary-bundle.pem')).toBe('auxiliary-bundle.pem')
    expect(safeFileName('COM10.pem')).toBe('COM10.pem')
  })

  it('keeps names readable: Unicode letters and spaces stay', () => {
    expect(safeFileName('Grafana Cloud (ÜberStats).p12')).toBe('Grafana Cloud (ÜberStats).p12')
    // NFC: a name typed on macOS (decomposed) and on Windows (composed) is the same file.
    expect(safeFileName('U\u0308ber.pem')).toBe('\u00dcber.pem')
  })

  it('cuts long names to 255 UTF-8 bytes, keeping the extension and whole characters', () => {
    const ascii = safeFileName(`${'a'.repeat(400)}.pem`)
    expect(Buffer.byteLength(ascii)).toBe(255)
    expect(ascii.endsWith('.pem')).toBe(true)
    const euros = safeFileName(`${'€'.repeat(200)}-fullchain.pem`)
    expect(Buffer.byteLength(euros)).toBeLessThanOrEqual(255)
    expect(euros.endsWith('.pem')).toBe(true)
    expect(euros).not.toContain('\ufffd')
    const emoji = safeFileName(`${'🔐'.repeat(100)}.key`)
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(255)
    // No lone surrogate: every code point survives a UTF-8 round trip.
    expect(Buffer.from(emoji, 'utf8').toString('utf8')).toBe(emoji)
    expect(emoji.endsWith('.key')).toBe(true)
  })

  it('holds for any string at all (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (candidate) => {
        expectSafe(safeFileName(candidate))
      }),
      { numRuns: 2000 },
    )
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('..', '.', '/', '\\', 'CON', 'nul', ' ', '\u0000', 'a', '€', '.pem'),
          {
            maxLength: 30,
          },
        ),
        (parts) => {
          expectSafe(safeFileName(parts.join('')))
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('numberedFileName and pathInside', () => {
  it('numbers before the extension', () => {
    expect(numberedFileName('www.pem', 2)).toBe('www (2).pem')
    expect(numberedFileName('README', 3)).toBe('README (3)')
    expect(Buffer.byteLength(numberedFileName(safeFileName(`${'a'.repeat(300)}.pem`), 12))).toBe(
      255,
    )
  })

  it('refuses a name that would leave the folder', () => {
    for (const bad of ['../x', 'a/b', '/etc/passwd', '..', '.']) {
      expect(() => pathInside(FOLDER, bad)).toThrow(/leaves its folder/)
    }
  })
})
