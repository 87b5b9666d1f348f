import path from 'node:path'

/*
 * File names that come from the service, a certificate or the user never choose a path: they
 * are reduced to one safe name inside the folder the user picked. Rules are the union of what
 * Linux, macOS and Windows refuse or treat specially, so a name that is safe here is safe on
 * every desktop we ship to.
 */

/**
 * Windows device names. Windows reads a name as the device when the part before its first dot,
 * trailing spaces dropped, is one: `CON`, `CON.txt` and `CON .txt` all open the console.
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i
/**
 * Characters no desktop file system takes in a name (plus the path separators), and the line
 * and paragraph separators, which split a name wherever it is shown.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what we remove
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
/** Bidirectional overrides and zero-width characters can disguise an extension (`txt.exe`). */
const DECEPTIVE = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g
/** Most file systems allow 255 bytes per name. */
const MAX_NAME_BYTES = 255

/**
 * One safe file name for `candidate`: its last path component, with forbidden and deceptive
 * characters replaced, no leading dots (no hidden files, no `..`), no trailing dots or spaces
 * (Windows drops them), no device names, at most 255 UTF-8 bytes with the extension kept.
 * Falls back to `fallback` (itself sanitised) when nothing usable is left.
 */
export function safeFileName(candidate: string, fallback = 'download'): string {
  const cleaned = clean(candidate)
  if (cleaned !== '') return cleaned
  const cleanedFallback = clean(fallback)
  return cleanedFallback === '' ? 'download' : cleanedFallback
}

function clean(candidate: string): string {
  // The last component of either separator: a name from a Windows server may use backslashes.
  const last = candidate.split(/[/\\]/).pop() ?? ''
  let name = last
    .normalize('NFC')
    .replace(DECEPTIVE, '')
    .replace(FORBIDDEN, '_')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '')
  if (/^_+$/.test(name)) return ''
  if (isWindowsDevice(name)) name = `_${name}`
  return truncateKeepingExtension(name, MAX_NAME_BYTES)
}

function isWindowsDevice(name: string): boolean {
  const beforeFirstDot = name.split('.')[0] ?? ''
  return WINDOWS_DEVICE.test(beforeFirstDot.replace(/\s+$/, ''))
}

function truncateKeepingExtension(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name, 'utf8') <= maxBytes) return name
  const extension = path.extname(name)
  const keepExtension = extension.length > 1 && Buffer.byteLength(extension, 'utf8') <= 32
  const suffix = keepExtension ? extension : ''
  const stem = keepExtension ? name.slice(0, -extension.length) : name
  return truncateBytes(stem, maxBytes - Buffer.byteLength(suffix, 'utf8')) + suffix
}

/** Cuts at a code point boundary, never inside a UTF-8 sequence or a surrogate pair. */
function truncateBytes(text: string, maxBytes: number): string {
  let bytes = 0
  let result = ''
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8')
    if (bytes + size > maxBytes) break
    bytes += size
    result += char
  }
  return result
}

/** `name (n).ext`: the numbered variant offered when `name` is taken (n >= 2). */
export function numberedFileName(name: string, n: number): string {
  // `.tar.gz` and its kin count as one extension: `a (2).tar.gz`, as browsers number them.
  const compound = /\.tar\.[a-z0-9]{1,4}$/i.exec(name)
  const extension = compound && compound.index > 0 ? compound[0] : path.extname(name)
  const stem = extension === '' || extension === name ? name : name.slice(0, -extension.length)
  const suffix = extension === name ? '' : extension
  return truncateKeepingExtension(`${stem} (${n})${suffix}`, MAX_NAME_BYTES)
}

/**
 * `folder/name` for a name already made safe, checked to lie directly inside `folder`; throws
 * otherwise (a bug, since safeFileName cannot produce such a name).
 */
export function pathInside(folder: string, safeName: string): string {
  const resolvedFolder = path.resolve(folder)
  const target = path.resolve(resolvedFolder, safeName)
  if (path.dirname(target) !== resolvedFolder || path.basename(target) !== safeName) {
    throw new Error(`refusing a file name that leaves its folder: ${JSON.stringify(safeName)}`)
  }
  return target
}
