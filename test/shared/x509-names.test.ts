import { X509Certificate } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { factsOfPem } from '../../src/main/features/certificates/x509'
import { readCertificateFacts } from '../../src/sandbox/pki'
import { oneLineName, subjectAltNamesOf } from '../../src/shared/x509-names'
import { makeSelfSigned, makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The names of a certificate (src/shared/x509-names.ts), read from certificates openssl made,
 * as Node renders them; main's details pane and the sandbox's facts read them the same way.
 */

let temp: TempDir

beforeAll(async () => {
  temp = await makeTempDir('infradesk-x509-names')
})

afterAll(async () => {
  await temp?.remove()
})

async function certificateWith(commonName: string, subjectAltName?: string) {
  const made = await makeSelfSigned(
    temp,
    commonName,
    subjectAltName === undefined ? {} : { subjectAltName },
  )
  return { pem: made.certificatePem, x509: new X509Certificate(made.certificatePem) }
}

describe('subjectAltNamesOf', () => {
  it('gives DNS names and IP addresses bare, in order, and other kinds with their prefix', async () => {
    const { pem, x509 } = await certificateWith(
      'san.example.test',
      'DNS:san.example.test,DNS:*.san.example.test,IP:10.0.0.7,IP:::1,' +
        'email:ops@example.test,URI:https://example.test/a?b=c',
    )
    const expected = [
      'san.example.test',
      '*.san.example.test',
      '10.0.0.7',
      '0:0:0:0:0:0:0:1',
      'email:ops@example.test',
      'URI:https://example.test/a?b=c',
    ]
    expect(subjectAltNamesOf(x509.subjectAltName)).toEqual(expected)
    // Main and the sandbox show the same names for the same certificate.
    expect(factsOfPem(pem)?.subjectAltNames).toEqual(expected)
    expect(readCertificateFacts(pem).subjectAltNames).toEqual(expected)
  })

  it('reads a value Node quoted (it holds a backslash) as the value itself', async () => {
    // openssl reads `\\` as one backslash; Node then writes the entry as a JSON string,
    // `URI:"https://example.test/a\\b"`, and the value comes back with its one backslash.
    const { x509 } = await certificateWith('quoted.example.test', 'URI:https://example.test/a\\\\b')
    expect(x509.subjectAltName).toContain('"')
    expect(subjectAltNamesOf(x509.subjectAltName)).toEqual(['URI:https://example.test/a\\b'])
  })

  it('is empty for a certificate without SANs', async () => {
    const { x509 } = await certificateWith('bare.example.test')
    expect(x509.subjectAltName).toBeUndefined()
    expect(subjectAltNamesOf(x509.subjectAltName)).toEqual([])
  })
})

describe('oneLineName', () => {
  it("joins Node's one-attribute-a-line name with commas", async () => {
    const { x509 } = await certificateWith('line.example.test')
    expect(oneLineName(x509.subject)).toBe('CN=line.example.test')
    expect(oneLineName('C=DE\nO=Infra Desk\nCN=line.example.test\n')).toBe(
      'C=DE, O=Infra Desk, CN=line.example.test',
    )
  })
})
