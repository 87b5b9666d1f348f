/*
 * A ZIP archive's file names, read from its central directory (PKWARE APPNOTE 6.3.x, 4.3.12 and
 * 4.3.16), to check a pem-bundle export before it is kept: a real ZIP (`PK\x03\x04` first, an
 * end-of-central-directory record whose directory lies inside the file, every entry's header
 * where it says) that lists PEM files. Nothing is extracted; no ZIP64 (a certificate bundle is
 * kilobytes).
 */

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_CENTRAL_DIRECTORY = 0x06054b50
const END_RECORD_BYTES = 22
/** The end record may be followed by a comment of at most this many bytes. */
const MAX_COMMENT_BYTES = 0xffff
/** Names of files a PEM bundle holds. */
const PEM_NAME = /\.(pem|crt|cer|key)$/i

/** The names a ZIP's central directory lists, or why the bytes are not a readable ZIP. */
export function zipEntryNames(bytes: Buffer): { names: string[] } | { problem: string } {
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== LOCAL_HEADER) {
    return { problem: 'it does not start with a ZIP local file header (PK\\x03\\x04)' }
  }
  const end = endRecordOffset(bytes)
  if (end === null) return { problem: 'it has no ZIP end-of-central-directory record (cut short?)' }
  const count = bytes.readUInt16LE(end + 10)
  const directorySize = bytes.readUInt32LE(end + 12)
  let offset = bytes.readUInt32LE(end + 16)
  if (offset + directorySize > end) return { problem: 'its ZIP central directory lies outside it' }
  const names: string[] = []
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > end || bytes.readUInt32LE(offset) !== CENTRAL_HEADER) {
      return { problem: `its ZIP central directory entry ${index + 1} is damaged` }
    }
    const nameLength = bytes.readUInt16LE(offset + 28)
    const extraLength = bytes.readUInt16LE(offset + 30)
    const commentLength = bytes.readUInt16LE(offset + 32)
    const localOffset = bytes.readUInt32LE(offset + 42)
    if (localOffset + 4 > bytes.length || bytes.readUInt32LE(localOffset) !== LOCAL_HEADER) {
      return { problem: `its ZIP entry ${index + 1} points at no local file header` }
    }
    names.push(bytes.toString('utf8', offset + 46, offset + 46 + nameLength))
    offset += 46 + nameLength + extraLength + commentLength
  }
  return { names }
}

/** Why bytes are not a ZIP bundle of PEM files, or null. */
export function zipProblem(bytes: Buffer): string | null {
  const listing = zipEntryNames(bytes)
  if ('problem' in listing) return `the pem-bundle ZIP is not readable: ${listing.problem}`
  if (!listing.names.some((name) => PEM_NAME.test(name))) {
    return 'the pem-bundle ZIP lists no PEM file'
  }
  return null
}

function endRecordOffset(bytes: Buffer): number | null {
  const last = bytes.length - END_RECORD_BYTES
  const first = Math.max(0, last - MAX_COMMENT_BYTES)
  for (let offset = last; offset >= first; offset -= 1) {
    if (bytes.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset
  }
  return null
}
