import { createHash, randomBytes } from 'node:crypto'
import forge from 'node-forge'
import { fromForgeBytes, toForgeBytes } from './pem'

/*
 * A Java KeyStore (JKS, version 2) written byte for byte as sun.security.provider.JavaKeyStore
 * writes it, so keytool and any JVM read it:
 *
 *   u4 0xFEEDFEED, u4 2, u4 entry count, then per entry
 *     u4 tag (1 = private key, 2 = trusted certificate), UTF alias, u8 creation time (ms),
 *     key entry:   u4 length + EncryptedPrivateKeyInfo, u4 chain length, chain certificates
 *     cert entry:  one certificate
 *   where a certificate is UTF "X.509", u4 length, DER
 *   and finally SHA-1( UTF-16BE(password) || "Mighty Aphrodite" || every byte above ).
 *
 * The key is protected by Sun's proprietary KeyProtector (OID 1.3.6.1.4.1.42.2.17.1.1), the
 * only protection JKS defines: a SHA-1 keystream XORed over the PKCS#8 bytes. It is weak by
 * design; JKS is offered because Java estates still ask for it, PKCS#12 is the better file.
 */

const MAGIC = 0xfeedfeed
const VERSION = 2
const TAG_PRIVATE_KEY = 1
const TAG_TRUSTED_CERTIFICATE = 2
const KEY_PROTECTOR_OID = '1.3.6.1.4.1.42.2.17.1.1'
const SHA1_BYTES = 20
const INTEGRITY_WHITENER = 'Mighty Aphrodite'

export interface JksPrivateKeyEntry {
  kind: 'private-key'
  alias: string
  /** PKCS#8 PrivateKeyInfo DER. */
  privateKeyDer: Buffer
  /** Leaf first, then its issuers. */
  chainDer: Buffer[]
}

export interface JksTrustedCertificateEntry {
  kind: 'trusted-certificate'
  alias: string
  certificateDer: Buffer
}

export type JksEntry = JksPrivateKeyEntry | JksTrustedCertificateEntry

/** Java's char[] password as bytes: each UTF-16 code unit, high byte first. */
function passwordBytes(password: string): Buffer {
  const bytes = Buffer.alloc(password.length * 2)
  for (let index = 0; index < password.length; index++) {
    bytes.writeUInt16BE(password.charCodeAt(index), index * 2)
  }
  return bytes
}

function sha1(...parts: Buffer[]): Buffer {
  const hash = createHash('sha1')
  for (const part of parts) hash.update(part)
  return hash.digest()
}

/** KeyProtector.protect: salt || (key XOR keystream) || SHA-1(password || key), in EPKI DER. */
export function protectJksKey(privateKeyDer: Buffer, password: string): Buffer {
  const secret = passwordBytes(password)
  const salt = randomBytes(SHA1_BYTES)
  const rounds = Math.ceil(privateKeyDer.length / SHA1_BYTES)
  const keystream = Buffer.alloc(rounds * SHA1_BYTES)
  let digest: Buffer = salt
  for (let round = 0; round < rounds; round++) {
    digest = sha1(secret, digest)
    digest.copy(keystream, round * SHA1_BYTES)
  }
  const encrypted = Buffer.alloc(privateKeyDer.length)
  for (let index = 0; index < privateKeyDer.length; index++) {
    encrypted[index] = (privateKeyDer[index] ?? 0) ^ (keystream[index] ?? 0)
  }
  const protectedKey = Buffer.concat([salt, encrypted, sha1(secret, privateKeyDer)])

  const { asn1 } = forge
  const encryptedPrivateKeyInfo = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(
        asn1.Class.UNIVERSAL,
        asn1.Type.OID,
        false,
        asn1.oidToDer(KEY_PROTECTOR_OID).getBytes(),
      ),
      // Java's AlgorithmId writes an explicit NULL parameter for this OID.
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
    ]),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, toForgeBytes(protectedKey)),
  ])
  return fromForgeBytes(asn1.toDer(encryptedPrivateKeyInfo).getBytes())
}

/** Big-endian writer for the DataOutputStream primitives JKS uses. */
class JavaDataWriter {
  private readonly parts: Buffer[] = []

  u4(value: number): void {
    const bytes = Buffer.alloc(4)
    bytes.writeUInt32BE(value)
    this.parts.push(bytes)
  }

  u8(value: number): void {
    const bytes = Buffer.alloc(8)
    bytes.writeBigUInt64BE(BigInt(value))
    this.parts.push(bytes)
  }

  /** DataOutputStream.writeUTF; aliases are ASCII here, where modified UTF-8 equals UTF-8. */
  utf(text: string): void {
    const isPrintableAscii = /^[\x20-\x7e]*$/.test(text)
    if (!isPrintableAscii) throw new Error('JKS strings must be printable ASCII here')
    const bytes = Buffer.from(text, 'ascii')
    const length = Buffer.alloc(2)
    length.writeUInt16BE(bytes.length)
    this.parts.push(length, bytes)
  }

  bytes(value: Buffer): void {
    this.parts.push(value)
  }

  certificate(der: Buffer): void {
    this.utf('X.509')
    this.u4(der.length)
    this.bytes(der)
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts)
  }
}

export function buildJks(
  entries: readonly JksEntry[],
  password: string,
  createdAt: Date = new Date(),
): Buffer {
  const writer = new JavaDataWriter()
  writer.u4(MAGIC)
  writer.u4(VERSION)
  writer.u4(entries.length)
  for (const entry of entries) {
    if (entry.kind === 'private-key') {
      writer.u4(TAG_PRIVATE_KEY)
      writer.utf(entry.alias)
      writer.u8(createdAt.getTime())
      const protectedKey = protectJksKey(entry.privateKeyDer, password)
      writer.u4(protectedKey.length)
      writer.bytes(protectedKey)
      writer.u4(entry.chainDer.length)
      for (const der of entry.chainDer) writer.certificate(der)
    } else {
      writer.u4(TAG_TRUSTED_CERTIFICATE)
      writer.utf(entry.alias)
      writer.u8(createdAt.getTime())
      writer.certificate(entry.certificateDer)
    }
  }
  const body = writer.toBuffer()
  const integrity = sha1(passwordBytes(password), Buffer.from(INTEGRITY_WHITENER, 'utf8'), body)
  return Buffer.concat([body, integrity])
}
