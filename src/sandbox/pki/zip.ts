import { crc32 } from 'node:zlib'

/*
 * A ZIP archive of a few small files, stored (method 0, no compression), for the gateway
 * flavour's pem-bundle export. No ZIP library is a dependency and a stored archive is three
 * fixed records per file (PKWARE APPNOTE 6.3.x, sections 4.3.7, 4.3.12 and 4.3.16): local file
 * header + data, central directory header, end of central directory. Names are UTF-8 (flag bit
 * 11); no ZIP64, so each file and the archive stay far below 4 GiB (PEM files are kilobytes).
 */

export interface ZipEntry {
  name: string
  bytes: Buffer
}

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_CENTRAL_DIRECTORY = 0x06054b50
/** Version 2.0: what a stored file with a UTF-8 name needs to be extracted. */
const VERSION = 20
const UTF8_NAMES = 1 << 11
/** 1980-01-01 00:00 in MS-DOS date/time: fixed, so the same files give the same archive. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1
const DOS_TIME = 0

/**
 * The fields both headers carry in the same order from `at` (APPNOTE 4.3.7 at offset 4, 4.3.12
 * at offset 6): version needed, flags, method (0, stored), time, date, CRC-32, compressed and
 * uncompressed size (equal, stored), name length.
 */
function writeFileFields(
  header: Buffer,
  at: number,
  checksum: number,
  size: number,
  nameLength: number,
): void {
  header.writeUInt16LE(VERSION, at)
  header.writeUInt16LE(UTF8_NAMES, at + 2)
  header.writeUInt16LE(0, at + 4)
  header.writeUInt16LE(DOS_TIME, at + 6)
  header.writeUInt16LE(DOS_DATE, at + 8)
  header.writeUInt32LE(checksum, at + 10)
  header.writeUInt32LE(size, at + 14)
  header.writeUInt32LE(size, at + 18)
  header.writeUInt16LE(nameLength, at + 22)
}

export function storedZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const checksum = crc32(entry.bytes)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(LOCAL_HEADER, 0)
    writeFileFields(local, 4, checksum, entry.bytes.length, name.length)
    local.writeUInt16LE(0, 28)
    locals.push(local, name, entry.bytes)

    const central = Buffer.alloc(46)
    central.writeUInt32LE(CENTRAL_HEADER, 0)
    central.writeUInt16LE(VERSION, 4) // made by
    writeFileFields(central, 6, checksum, entry.bytes.length, name.length)
    // extra, comment, disk, internal and external attributes: 0
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    offset += local.length + name.length + entry.bytes.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
