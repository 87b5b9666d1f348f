import { createCipheriv, createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { crc32CombineShifted, crc32ForcingBytes, crc32Shift } from './crc32'

/*
 * The content of a volume's data file: pseudo-random bytes that can be produced from any
 * offset, and whose CRC-32 is known without producing them.
 *
 * The file is cut into chunks of CHUNK_BYTES. A chunk is the AES-256-CTR keystream
 * (key sha256(seed), counter = the chunk's offset / 16) for all but its last four bytes;
 * those four are chosen so the chunk's CRC-32 is CHUNK_CRC. The file's CRC is then pure
 * arithmetic over the chunk count, which is what lets a gzip trailer (and so any byte
 * range of a 1 GiB archive) be served without a pass over the whole content.
 */

export const CHUNK_BYTES = 1024 * 1024
/** Any fixed value works; every chunk of four bytes or more is forced to it. */
const CHUNK_CRC = 0x5a4e4458

/** A chunk of all-zero input for the keystream; never written to. */
const ZEROS = Buffer.alloc(CHUNK_BYTES)

export class KeystreamFile {
  readonly crc: number
  private readonly key: Buffer

  constructor(
    seed: string,
    readonly length: number,
  ) {
    this.key = createHash('sha256').update(seed, 'utf8').digest()
    this.crc = this.computeCrc()
  }

  get chunkCount(): number {
    return Math.ceil(this.length / CHUNK_BYTES)
  }

  /** Bytes of chunk `index`: [index * CHUNK_BYTES, min(length, (index + 1) * CHUNK_BYTES)). */
  chunk(index: number): Buffer {
    const start = index * CHUNK_BYTES
    const length = Math.min(CHUNK_BYTES, this.length - start)
    if (length <= 0) throw new RangeError(`chunk ${index} is past the end of the file`)
    if (length < 4) return this.keystream(start, length)
    const body = this.keystream(start, length - 4)
    return Buffer.concat([body, crc32ForcingBytes(crc32(body), CHUNK_CRC)], length)
  }

  private keystream(offset: number, length: number): Buffer {
    const iv = Buffer.alloc(16)
    iv.writeBigUInt64BE(BigInt(offset / 16), 8)
    return createCipheriv('aes-256-ctr', this.key, iv).update(ZEROS.subarray(0, length))
  }

  private computeCrc(): number {
    const fullChunks = Math.floor(this.length / CHUNK_BYTES)
    const shift = crc32Shift(CHUNK_BYTES)
    let crc = 0
    for (let i = 0; i < fullChunks; i++) crc = crc32CombineShifted(crc, CHUNK_CRC, shift)
    const tailLength = this.length - fullChunks * CHUNK_BYTES
    if (tailLength === 0) return crc
    // The short last chunk is forced too when it can be, so only a tail under 4 bytes is read.
    const tailCrc = tailLength >= 4 ? CHUNK_CRC : crc32(this.chunk(fullChunks))
    return crc32CombineShifted(crc, tailCrc, crc32Shift(tailLength))
  }
}

/** Reads byte ranges of a KeystreamFile, keeping the last chunk it made for the next read. */
export class KeystreamReader {
  private cachedIndex = -1
  private cachedChunk: Buffer = Buffer.alloc(0)

  constructor(private readonly file: KeystreamFile) {}

  read(offset: number, length: number): Buffer {
    const pieces: Buffer[] = []
    let position = offset
    const end = offset + length
    while (position < end) {
      const index = Math.floor(position / CHUNK_BYTES)
      const chunk = this.chunkAt(index)
      const from = position - index * CHUNK_BYTES
      const to = Math.min(chunk.length, end - index * CHUNK_BYTES)
      pieces.push(chunk.subarray(from, to))
      position += to - from
    }
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, length)
  }

  private chunkAt(index: number): Buffer {
    if (index !== this.cachedIndex) {
      this.cachedChunk = this.file.chunk(index)
      this.cachedIndex = index
    }
    return this.cachedChunk
  }
}
