import { createHash } from 'node:crypto'
import forge from 'node-forge'
import { fromForgeBytes, toForgeBytes } from './pem'

/*
 * A PKCS#12 (PFX) file laid out like node-forge's toPkcs12Asn1, but fed with DER so that any
 * key type works (forge itself only understands RSA keys and RSA certificates, and uploads
 * may be EC). forge still does the PKCS#12 key derivation, 3DES and HMAC.
 *
 * Algorithms: the key is a pkcs8ShroudedKeyBag under pbeWithSHAAnd3-KeyTripleDES-CBC, the
 * certificates sit in a plain SafeContents, the whole is authenticated by an HMAC-SHA1 MAC.
 * These open in OpenSSL 3 without -legacy (only RC2 needs the legacy provider), in Java's
 * keytool, in Windows and in macOS Keychain.
 */

const { asn1 } = forge
const ITERATIONS = 2048
const SALT_BYTES = 8

export interface Pkcs12Input {
  /** PKCS#8 PrivateKeyInfo DER; absent for a certificates-only file. */
  privateKeyDer?: Buffer
  /** Leaf first, then the issuers. */
  certificatesDer: Buffer[]
  /** '' is a valid PKCS#12 password (encoded as the empty BMPString plus terminator). */
  password: string
  friendlyName: string
}

export function buildPkcs12(input: Pkcs12Input): Buffer {
  const leafDer = input.certificatesDer[0]
  // localKeyID pairs the key with its certificate; SHA-1 of the certificate, as forge does.
  const pairingAttributes = bagAttributes(
    leafDer ? createHash('sha1').update(leafDer).digest() : undefined,
    input.friendlyName,
  )

  const certificateBags = input.certificatesDer.map((der, index) =>
    certificateBag(der, index === 0 ? pairingAttributes : undefined),
  )
  const contents: forge.asn1.Asn1[] = []
  if (certificateBags.length > 0) contents.push(dataContentInfo(sequence(certificateBags)))
  if (input.privateKeyDer) {
    const privateKeyInfo = asn1.fromDer(toForgeBytes(input.privateKeyDer))
    const encrypted = forge.pki.encryptPrivateKeyInfo(privateKeyInfo, input.password, {
      algorithm: '3des',
      count: ITERATIONS,
      saltSize: SALT_BYTES,
    })
    const keyBag = sequence([
      oid(forge.pki.oids.pkcs8ShroudedKeyBag),
      explicit0([encrypted]),
      pairingAttributes,
    ])
    contents.push(dataContentInfo(sequence([keyBag])))
  }

  const authenticatedSafe = sequence(contents)
  const pfx = sequence([
    integer(3),
    dataContentInfo(authenticatedSafe),
    macData(asn1.toDer(authenticatedSafe).getBytes(), input.password),
  ])
  return fromForgeBytes(asn1.toDer(pfx).getBytes())
}

function macData(authenticatedSafeDer: string, password: string): forge.asn1.Asn1 {
  const salt = forge.random.getBytesSync(SALT_BYTES)
  // Purpose byte 3 = MAC key (RFC 7292 B.3); 20 bytes for HMAC-SHA1.
  const macKey = forge.pkcs12.generateKey(
    password,
    forge.util.createBuffer(salt, 'raw'),
    3,
    ITERATIONS,
    20,
  )
  const hmac = forge.hmac.create()
  hmac.start('sha1', macKey.getBytes())
  hmac.update(authenticatedSafeDer)
  return sequence([
    sequence([sequence([oid(forge.pki.oids.sha1), nullValue()]), octets(hmac.digest().getBytes())]),
    octets(salt),
    integer(ITERATIONS),
  ])
}

function certificateBag(der: Buffer, attributes: forge.asn1.Asn1 | undefined): forge.asn1.Asn1 {
  return sequence([
    oid(forge.pki.oids.certBag),
    explicit0([
      sequence([oid(forge.pki.oids.x509Certificate), explicit0([octets(toForgeBytes(der))])]),
    ]),
    ...(attributes ? [attributes] : []),
  ])
}

function bagAttributes(localKeyId: Buffer | undefined, friendlyName: string): forge.asn1.Asn1 {
  const attributes = [
    sequence([
      oid(forge.pki.oids.friendlyName),
      set([asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BMPSTRING, false, friendlyName)]),
    ]),
  ]
  if (localKeyId) {
    attributes.unshift(
      sequence([oid(forge.pki.oids.localKeyId), set([octets(toForgeBytes(localKeyId))])]),
    )
  }
  return set(attributes)
}

/** A PKCS#7 ContentInfo of type data wrapping the DER of `content`. */
function dataContentInfo(content: forge.asn1.Asn1): forge.asn1.Asn1 {
  return sequence([oid(forge.pki.oids.data), explicit0([octets(asn1.toDer(content).getBytes())])])
}

function sequence(items: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items)
}

function set(items: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items)
}

function explicit0(items: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, items)
}

function oid(dotted: string | undefined): forge.asn1.Asn1 {
  if (!dotted) throw new Error('Unknown OID')
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(dotted).getBytes())
}

function octets(bytes: string): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes)
}

function integer(value: number): forge.asn1.Asn1 {
  return asn1.create(
    asn1.Class.UNIVERSAL,
    asn1.Type.INTEGER,
    false,
    asn1.integerToDer(value).getBytes(),
  )
}

function nullValue(): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')
}
