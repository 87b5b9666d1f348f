import { describe, expect, it } from 'vitest'
import { describeSystemTrust, readSystemTrust } from '../../src/main/shell/trust-report'

/*
 * What the OS trust store gave the runtime is said, including when it gave nothing
 * (Electron's Node is built on BoringSSL; the store may throw or come back empty there).
 * src/main/net/trust.ts swallows both and falls back to the bundled roots: this report is how a
 * user or a bug report learns it.
 */

describe('the system trust report', () => {
  it('counts what the store gave', () => {
    const report = readSystemTrust(() => [
      '-----BEGIN CERTIFICATE-----a',
      '-----BEGIN CERTIFICATE-----b',
    ])
    expect(report).toEqual({ count: 2, problem: null })
    expect(describeSystemTrust(report)).toContain('2 certificate authorities from the system store')
  })

  it('says why the store gave nothing: a failure, an empty store, a runtime without the API', () => {
    const failed = readSystemTrust(() => {
      throw new Error('error:0480006C:PEM routines::no start line')
    })
    expect(failed).toEqual({ count: 0, problem: 'error:0480006C:PEM routines::no start line' })
    expect(describeSystemTrust(failed)).toContain('no certificate authority from the system store')
    expect(describeSystemTrust(failed)).toContain('no start line')
    expect(readSystemTrust(() => [])).toEqual({ count: 0, problem: 'the system store is empty' })
    expect(readSystemTrust(null).problem).toContain('cannot read the system store')
  })

  it("reads this machine's store through Node by default", () => {
    // This machine has a CA store (ca-certificates): Node 24 reads it.
    expect(readSystemTrust().count).toBeGreaterThan(0)
  })
})
