import type { ExportFormat } from '../../shared/api'
import { EXPORT_FORMAT_INFO } from '../../shared/bridge'

/*
 * Op 12 answers with the file's raw bytes, which carry no checksum: the client checks their
 * envelope (src/main/api/client.ts, exportCertificateFile) so that a body a proxy damaged is
 * never saved as the file. Text formats are PEM; the binary ones are DER, PKCS#12 or JKS.
 */

/**
 * Why the bytes of an export cannot be a file of the format asked for, or null. A shallow check of
 * the envelope only (PEM blocks with intact boundary lines; DER and PKCS#12 start with an ASN.1
 * SEQUENCE; a JKS or JCEKS keystore with its magic number, or a PKCS#12 keystore): enough to
 * refuse a truncated, empty or damaged body, never a judgement on the certificate inside.
 */
export function exportShapeProblem(format: ExportFormat, bytes: Buffer): string | null {
  if (bytes.length === 0) return `the ${format} export is empty`
  if (!EXPORT_FORMAT_INFO[format].binary) {
    const problem = pemProblem(bytes.toString('utf8'))
    return problem === null ? null : `the ${format} export is not a PEM file (${problem})`
  }
  const sequence = bytes[0] === 0x30
  if (format === 'jks') {
    const magic = bytes.length >= 4 ? bytes.readUInt32BE(0) : 0
    if (magic === 0xfeedfeed || magic === 0xcececece || sequence) return null
    return 'the jks export is not a Java keystore (no keystore magic number at its start)'
  }
  if (sequence) return null
  return `the ${format} export is not ${format === 'der' ? 'DER' : 'PKCS#12'} data (it does not start with an ASN.1 SEQUENCE)`
}

/** Why a text is not a PEM file (blocks with matching, intact BEGIN and END lines), or null. */
function pemProblem(text: string): string | null {
  let open: string | null = null
  let blocks = 0
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    const boundary = /^-----(BEGIN|END) ([A-Z0-9 ]+)-----$/.exec(line)
    if (boundary !== null) {
      const [, kind, label] = boundary
      if (kind === 'BEGIN') {
        if (open !== null) return `a BEGIN ${label ?? ''} line inside a ${open} block`
        open = label ?? ''
      } else {
        if (open !== label) return `an END ${label ?? ''} line without its BEGIN line`
        open = null
        blocks += 1
      }
    } else if (/-{2,}\s*(BEGIN|END)\b|\b(BEGIN|END) [A-Z0-9 ]+-{2,}/.test(line)) {
      return 'a damaged BEGIN or END line'
    }
  }
  if (open !== null) return `the ${open} block has no END line`
  if (blocks === 0) return 'no PEM block'
  return null
}
