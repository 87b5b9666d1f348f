/*
 * A gzip member whose deflate data is nothing but STORED blocks. Nothing is compressed
 * (the content is random anyway), so the length is arithmetic and every byte of the
 * member maps to a known byte of the content:
 *
 *   header (10) | block 0: 5-byte header + up to 65535 content bytes | block 1 ... | crc32, isize
 */

export const GZIP_HEADER_BYTES = 10
export const GZIP_TRAILER_BYTES = 8
export const STORED_BLOCK_MAX = 65535
const STORED_HEADER_BYTES = 5
export const STORED_BLOCK_SPAN = STORED_HEADER_BYTES + STORED_BLOCK_MAX

/** Magic, deflate, no flags, mtime 0, no extra flags, OS "unknown": the same for every archive. */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff])

export class StoredGzipGeometry {
  readonly blockCount: number
  readonly trailerOffset: number
  readonly length: number

  constructor(readonly contentLength: number) {
    // An empty content still needs one (final, empty) block.
    this.blockCount = Math.max(1, Math.ceil(contentLength / STORED_BLOCK_MAX))
    this.trailerOffset = GZIP_HEADER_BYTES + contentLength + STORED_HEADER_BYTES * this.blockCount
    this.length = this.trailerOffset + GZIP_TRAILER_BYTES
  }

  /** Index of the stored block that holds member offset `offset` (inside the block area). */
  blockAt(offset: number): number {
    return Math.floor((offset - GZIP_HEADER_BYTES) / STORED_BLOCK_SPAN)
  }

  blockStart(block: number): number {
    return GZIP_HEADER_BYTES + block * STORED_BLOCK_SPAN
  }

  blockContentOffset(block: number): number {
    return block * STORED_BLOCK_MAX
  }

  blockContentLength(block: number): number {
    return Math.min(STORED_BLOCK_MAX, this.contentLength - block * STORED_BLOCK_MAX)
  }

  /** BFINAL on the last block, BTYPE 00 (stored), then LEN and its one's complement NLEN. */
  blockHeader(block: number): Buffer {
    const length = this.blockContentLength(block)
    const header = Buffer.alloc(STORED_HEADER_BYTES)
    header[0] = block === this.blockCount - 1 ? 1 : 0
    header.writeUInt16LE(length, 1)
    header.writeUInt16LE(~length & 0xffff, 3)
    return header
  }

  trailer(contentCrc: number): Buffer {
    const trailer = Buffer.alloc(GZIP_TRAILER_BYTES)
    trailer.writeUInt32LE(contentCrc >>> 0, 0)
    trailer.writeUInt32LE(this.contentLength % 2 ** 32, 4) // ISIZE: length modulo 2^32
    return trailer
  }
}
