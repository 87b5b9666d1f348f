// Draws resources/icon.png (512x512): a rounded slate square with three server-rack bars and
// their status lights. Pure Node (zlib for the PNG's deflate stream), so no image tool is needed.
// Run: node resources/make-icon.mjs
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const SIZE = 512
const SAMPLES = 4 // supersampling per axis, for smooth edges

const background = [15, 23, 42] // slate-900
const bar = [37, 99, 235] // blue-600
const light = [34, 197, 94] // green-500

function insideRoundedRect(x, y, left, top, width, height, radius) {
  if (x < left || x > left + width || y < top || y > top + height) return false
  const cx = Math.min(Math.max(x, left + radius), left + width - radius)
  const cy = Math.min(Math.max(y, top + radius), top + height - radius)
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2
}

function colourAt(x, y) {
  if (!insideRoundedRect(x, y, 16, 16, 480, 480, 96)) return null
  for (const top of [112, 220, 328]) {
    if (insideRoundedRect(x, y, 96, top, 320, 72, 18)) {
      const lightX = 372
      const lightY = top + 36
      return (x - lightX) ** 2 + (y - lightY) ** 2 <= 14 ** 2 ? light : bar
    }
  }
  return background
}

const rows = []
for (let py = 0; py < SIZE; py++) {
  const row = Buffer.alloc(1 + SIZE * 4) // filter byte 0, then RGBA
  for (let px = 0; px < SIZE; px++) {
    let r = 0
    let g = 0
    let b = 0
    let a = 0
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const c = colourAt(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES)
        if (!c) continue
        r += c[0]
        g += c[1]
        b += c[2]
        a += 255
      }
    }
    const covered = a / 255
    const offset = 1 + px * 4
    row[offset] = covered ? Math.round(r / covered) : 0
    row[offset + 1] = covered ? Math.round(g / covered) : 0
    row[offset + 2] = covered ? Math.round(b / covered) : 0
    row[offset + 3] = Math.round(a / (SAMPLES * SAMPLES))
  }
  rows.push(row)
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes) {
  let c = 0xffffffff
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

const header = Buffer.alloc(13)
header.writeUInt32BE(SIZE, 0)
header.writeUInt32BE(SIZE, 4)
header[8] = 8 // bit depth
header[9] = 6 // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
])
writeFileSync(new URL('./icon.png', import.meta.url), png)
console.log(`wrote resources/icon.png (${png.length} bytes)`)
