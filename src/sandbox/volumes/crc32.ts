import { crc32 } from 'node:zlib'

/*
 * CRC-32 (the gzip/zlib polynomial) arithmetic that zlib.crc32 does not offer:
 * combining the CRCs of two adjacent pieces without reading them again, and choosing
 * four bytes that give a piece a wanted CRC. Together they let an archive know the CRC
 * of a gigabyte of generated content without generating it.
 */

/** The reflected CRC-32 polynomial. */
const POLY = 0xedb88320

/** Byte-at-a-time table, and the table's top byte inverted (each top byte occurs once). */
const TABLE = new Uint32Array(256)
const INDEX_BY_TOP_BYTE = new Uint8Array(256)
for (let n = 0; n < 256; n++) {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1
  TABLE[n] = c >>> 0
  INDEX_BY_TOP_BYTE[c >>> 24] = n
}

/** a * b modulo the polynomial, in the reflected bit order (zlib's multmodp). */
function multModP(a: number, b: number): number {
  if (a === 0) return 0
  let m = 0x80000000
  let p = 0
  for (;;) {
    if ((a & m) !== 0) {
      p ^= b
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1
  }
  return p >>> 0
}

/** X_2N[k] = x^(2^k) modulo the polynomial. */
const X_2N = new Uint32Array(32)
X_2N[0] = 0x40000000 // x^1
for (let k = 1; k < 32; k++) X_2N[k] = multModP(X_2N[k - 1]!, X_2N[k - 1]!)

/** x^(n * 2^k) modulo the polynomial; n may exceed 2^32 (any safe integer). */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000 // x^0
  while (n > 0) {
    if (n % 2 === 1) p = multModP(X_2N[k & 31]!, p)
    n = Math.floor(n / 2)
    k++
  }
  return p
}

/** The multiplier that shifts a CRC past `length` bytes, for repeated combines. */
export function crc32Shift(length: number): number {
  return x2nModP(length, 3)
}

/** CRC of A followed by B, from crc(A), crc(B) and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(crc32Shift(lengthB), crcA) ^ crcB) >>> 0
}

/** Like crc32Combine with a shift precomputed by crc32Shift(lengthB). */
export function crc32CombineShifted(crcA: number, crcB: number, shiftB: number): number {
  return (multModP(shiftB, crcA) ^ crcB) >>> 0
}

/**
 * The four bytes that, appended to a piece whose CRC is `prefixCrc`, make the CRC of the
 * whole equal `targetCrc`. Appending four bytes to the raw register r is an invertible
 * linear map G(r ^ bytes), so bytes = G⁻¹(target register) ^ r; G⁻¹ is four table steps
 * run backwards.
 */
export function crc32ForcingBytes(prefixCrc: number, targetCrc: number): Buffer {
  let register = ~targetCrc >>> 0
  for (let step = 0; step < 4; step++) {
    const index = INDEX_BY_TOP_BYTE[register >>> 24]!
    register = (((register ^ TABLE[index]!) << 8) | index) >>> 0
  }
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32LE((register ^ ~prefixCrc) >>> 0)
  return bytes
}

/** CRC of `length` zero bytes (small lengths only: it allocates them). */
export function crc32OfZeros(length: number): number {
  return crc32(Buffer.alloc(length))
}
