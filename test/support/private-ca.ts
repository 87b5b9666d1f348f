import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { NEW_EC_KEY, openssl } from './tools'
import type { TempDir } from './tools'

/*
 * A private certificate authority made with openssl at test time, as a company's internal CA
 * would be: a self-signed root (CA:true) and server certificates it issues for 127.0.0.1.
 */

export interface IssuedCertificate {
  certPem: string
  keyPem: string
  /** `AB:CD:…` as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string
}

export interface PrivateCa {
  pem: string
  fingerprint: string
  subject: string
  /** A server certificate for 127.0.0.1 and localhost, issued by this CA. */
  issue(name: string): Promise<IssuedCertificate>
}

/** The SHA-256 fingerprint of a PEM certificate file, by openssl. */
export async function opensslFingerprint(file: string): Promise<string> {
  const out = await openssl(['x509', '-noout', '-fingerprint', '-sha256', '-in', file])
  const value = out.trim().split('=')[1]
  if (value === undefined) throw new Error(`unexpected openssl output: ${out}`)
  return value
}

export async function makePrivateCa(temp: TempDir, name: string): Promise<PrivateCa> {
  const file = (suffix: string) => path.join(temp.dir, `${name}-${suffix}`)
  const subject = `CN=${name} Root CA, O=Infradesk Tests`
  await openssl([
    'req',
    '-x509',
    ...NEW_EC_KEY,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '30',
    '-subj',
    `/CN=${name} Root CA/O=Infradesk Tests`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ])
  const pem = await readFile(file('ca.pem'), 'utf8')
  return {
    pem,
    subject,
    fingerprint: await opensslFingerprint(file('ca.pem')),
    async issue(leafName) {
      const leaf = (suffix: string) => path.join(temp.dir, `${name}-${leafName}-${suffix}`)
      await temp.write(
        `${name}-${leafName}-ext.cnf`,
        'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n' +
          'extendedKeyUsage=serverAuth\n',
      )
      await openssl([
        'req',
        ...NEW_EC_KEY,
        '-keyout',
        leaf('key.pem'),
        '-out',
        leaf('csr.pem'),
        '-subj',
        `/CN=${leafName}`,
      ])
      await openssl([
        'x509',
        '-req',
        '-in',
        leaf('csr.pem'),
        '-CA',
        file('ca.pem'),
        '-CAkey',
        file('ca.key'),
        '-CAcreateserial',
        '-out',
        leaf('cert.pem'),
        '-days',
        '30',
        '-extfile',
        leaf('ext.cnf'),
      ])
      return {
        certPem: await readFile(leaf('cert.pem'), 'utf8'),
        keyPem: await readFile(leaf('key.pem'), 'utf8'),
        fingerprint: await opensslFingerprint(leaf('cert.pem')),
      }
    },
  }
}
