import { describe, expect, it } from 'vitest'
import { defaultArchiveName } from '../../src/main/features/volumes'

/*
 * A volume archive's name in web mode, where no dialog shows it: the service names the file,
 * but never what it opens as (the probe's `Report 2026.pdf<80 spaces>.desktop`).
 */

const base = { name: 'pgdata', nodeId: 'n1', format: 'tar.gz' }

describe('the default name of a volume archive', () => {
  it("takes the extension from the format, never from the service's name", () => {
    const hostile = `Report 2026.pdf${' '.repeat(80)}.desktop`
    expect(defaultArchiveName({ ...base, filename: hostile }, 'pgdata')).toBe(
      'Report 2026.pdf.tar.gz',
    )
    expect(defaultArchiveName({ ...base, filename: 'run.sh' }, 'pgdata')).toBe('run.tar.gz')
  })

  it('collapses runs of whitespace', () => {
    expect(defaultArchiveName({ ...base, filename: 'a \t\n  b.tar.gz' }, 'pgdata')).toBe(
      'a b.tar.gz',
    )
  })

  it("keeps a service's archive name, and the volume's name without one", () => {
    expect(defaultArchiveName({ ...base, filename: 'pgdata-2026.tar.gz' }, 'pgdata')).toBe(
      'pgdata-2026.tar.gz',
    )
    expect(defaultArchiveName(base, 'pgdata')).toBe('pgdata.tar.gz')
    expect(defaultArchiveName({ ...base, format: 'exe' }, 'pgdata')).toBe('pgdata.tar.gz')
  })
})
