import { crc32 } from 'node:zlib'
import { crc32Combine, crc32OfZeros } from './crc32'
import { KeystreamReader, type KeystreamFile } from './keystream'

/*
 * A ustar archive described as a list of parts (small buffers, runs of zeros, a generated
 * file), so its length and CRC are known up front and any byte range can be read without
 * reading what comes before it.
 */

export const BLOCK = 512
/** ustar's 11 octal digits of size. */
export const MAX_ENTRY_BYTES = 8 ** 11 - 1

/** Every entry gets the same owner and time, so the bytes depend on the content alone. */
const FIXED_MTIME = Date.UTC(2024, 0, 1) / 1000

export type TarPart =
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'zeros'; length: number }
  | { kind: 'keystream'; file: KeystreamFile }

export type TarEntry =
  | { type: 'directory'; path: string }
  | { type: 'file'; path: string; content: Buffer | KeystreamFile }

export interface TarLayout {
  parts: TarPart[]
  /** Offset of each part in the archive. */
  offsets: number[]
  length: number
  crc: number
}

export function partLength(part: TarPart): number {
  switch (part.kind) {
    case 'bytes':
      return part.bytes.length
    case 'zeros':
      return part.length
    case 'keystream':
      return part.file.length
  }
}

function partCrc(part: TarPart): number {
  switch (part.kind) {
    case 'bytes':
      return crc32(part.bytes)
    case 'zeros':
      return crc32OfZeros(part.length)
    case 'keystream':
      return part.file.crc
  }
}

export function layOutTar(entries: TarEntry[]): TarLayout {
  const parts: TarPart[] = []
  for (const entry of entries) {
    if (entry.type === 'directory') {
      parts.push({ kind: 'bytes', bytes: ustarHeader(entry.path, 0, '5') })
      continue
    }
    const content = entry.content
    const size = content.length
    parts.push({ kind: 'bytes', bytes: ustarHeader(entry.path, size, '0') })
    parts.push(
      Buffer.isBuffer(content)
        ? { kind: 'bytes', bytes: content }
        : { kind: 'keystream', file: content },
    )
    const padding = (BLOCK - (size % BLOCK)) % BLOCK
    if (padding > 0) parts.push({ kind: 'zeros', length: padding })
  }
  // End of archive: two zero blocks.
  parts.push({ kind: 'zeros', length: 2 * BLOCK })

  const offsets: number[] = []
  let length = 0
  let crc = 0
  for (const part of parts) {
    offsets.push(length)
    const size = partLength(part)
    crc = crc32Combine(crc, partCrc(part), size)
    length += size
  }
  return { parts, offsets, length, crc }
}

/** A 512-byte ustar header for a regular file ('0') or a directory ('5'). */
export function ustarHeader(path: string, size: number, typeflag: '0' | '5'): Buffer {
  const name = Buffer.from(path, 'utf8')
  if (name.length > 100) throw new RangeError(`tar entry name longer than 100 bytes: ${path}`)
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_ENTRY_BYTES) {
    throw new RangeError(`tar entry size out of range: ${size}`)
  }
  const header = Buffer.alloc(BLOCK)
  name.copy(header, 0)
  writeOctal(header, 100, 8, typeflag === '5' ? 0o755 : 0o644) // mode
  writeOctal(header, 108, 8, 0) // uid
  writeOctal(header, 116, 8, 0) // gid
  writeOctal(header, 124, 12, size)
  writeOctal(header, 136, 12, FIXED_MTIME)
  header.write(typeflag, 156, 'ascii')
  header.write('ustar\u000000', 257, 'ascii') // magic "ustar\0" and version "00"
  header.write('root', 265, 'ascii') // uname
  header.write('root', 297, 'ascii') // gname
  // The checksum is the byte sum with its own field read as eight spaces.
  header.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of header) sum += byte
  header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'ascii')
  return header
}

/** Zero-padded octal digits and a terminating NUL, filling a field of `width` bytes. */
function writeOctal(header: Buffer, offset: number, width: number, value: number): void {
  header.write(`${value.toString(8).padStart(width - 1, '0')}\u0000`, offset, 'ascii')
}

/** Reads byte ranges of a laid-out archive; one reader per stream (it caches a chunk). */
export class TarReader {
  private readonly keystreamReaders = new Map<KeystreamFile, KeystreamReader>()

  constructor(private readonly layout: TarLayout) {}

  read(offset: number, length: number): Buffer {
    const { parts, offsets } = this.layout
    const pieces: Buffer[] = []
    let position = offset
    const end = offset + length
    let index = this.partIndexAt(offset)
    while (position < end) {
      const part = parts[index]!
      const partStart = offsets[index]!
      const from = position - partStart
      const to = Math.min(partLength(part), end - partStart)
      if (to > from) {
        pieces.push(this.readPart(part, from, to - from))
        position += to - from
      }
      index++
    }
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, length)
  }

  private partIndexAt(offset: number): number {
    const { offsets } = this.layout
    let low = 0
    let high = offsets.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (offsets[middle]! <= offset) low = middle
      else high = middle - 1
    }
    return low
  }

  private readPart(part: TarPart, offset: number, length: number): Buffer {
    switch (part.kind) {
      case 'bytes':
        return part.bytes.subarray(offset, offset + length)
      case 'zeros':
        return Buffer.alloc(length)
      case 'keystream': {
        let reader = this.keystreamReaders.get(part.file)
        if (!reader) {
          reader = new KeystreamReader(part.file)
          this.keystreamReaders.set(part.file, reader)
        }
        return reader.read(offset, length)
      }
    }
  }
}
