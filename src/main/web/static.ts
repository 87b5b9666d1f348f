import { createReadStream, readFileSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import path from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
}

export type StaticLookup =
  | { kind: 'file'; file: string; contentType: string; size: number }
  | { kind: 'index' }
  | { kind: 'not-found' }
  | { kind: 'refused' }

/** Where a URL path leads under `root`, before the disk is asked (see lookupStatic). */
type StaticPath =
  { kind: 'path'; file: string; relative: string } | { kind: 'index' } | { kind: 'refused' }

/**
 * Maps a URL path onto a file under `root`, refusing anything that could step outside it:
 * encoded or literal `..` segments, backslashes (a Windows separator), NUL bytes. The check is
 * made on the decoded segments and again on the resolved path, so neither a clever encoding nor
 * a symlink-free `path.join` surprise can reach a file beyond the renderer folder.
 */
function staticPathUnder(root: string, urlPath: string): StaticPath {
  let segments: string[]
  try {
    segments = urlPath.split('/').map((segment) => decodeURIComponent(segment))
  } catch {
    return { kind: 'refused' }
  }
  if (segments.some((s) => s === '..' || s === '.' || s.includes('\\') || s.includes('\0'))) {
    return { kind: 'refused' }
  }
  if (segments.some((s) => s.includes('/'))) return { kind: 'refused' }
  const relative = segments.filter((s) => s !== '').join('/')
  if (relative === '' || relative === 'index.html') return { kind: 'index' }
  const file = path.resolve(root, relative)
  const fromRoot = path.relative(root, file)
  if (fromRoot === '' || fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) {
    return { kind: 'refused' }
  }
  return { kind: 'path', file, relative }
}

function contentTypeOf(file: string): string {
  // An unknown type is not guessed: with nosniff the browser would refuse it anyway.
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
}

export async function lookupStatic(root: string, urlPath: string): Promise<StaticLookup> {
  const found = staticPathUnder(root, urlPath)
  if (found.kind !== 'path') return found
  const info = await stat(found.file).catch(() => null)
  if (info?.isFile()) {
    return {
      kind: 'file',
      file: found.file,
      contentType: contentTypeOf(found.file),
      size: info.size,
    }
  }
  // A path without an extension is a client route of the single-page app; a missing asset is a 404.
  return path.extname(found.relative) === '' ? { kind: 'index' } : { kind: 'not-found' }
}

/** A file read whole, to be sent in one write. */
export interface HeldFile {
  bytes: Buffer
  contentType: string
}

/**
 * The files at `urlPaths` under `root`, read now (synchronously: the few hundred kB a page
 * names, 1-3 ms). Paths that are not plain files under `root` are left out; they are then
 * served (or refused) as any other request.
 */
export function readFilesNow(root: string, urlPaths: string[]): Map<string, HeldFile> {
  const held = new Map<string, HeldFile>()
  for (const urlPath of urlPaths) {
    const found = staticPathUnder(root, urlPath)
    if (found.kind !== 'path') continue
    try {
      held.set(urlPath, { bytes: readFileSync(found.file), contentType: contentTypeOf(found.file) })
    } catch {
      // Missing or unreadable: the request for it gets the usual answer.
    }
  }
  return held
}

export function sendFile(
  response: ServerResponse,
  found: { file: string; contentType: string; size: number },
  headOnly: boolean,
) {
  response.writeHead(200, fileHeaders(found.contentType, found.size))
  if (headOnly) {
    response.end()
    return
  }
  createReadStream(found.file)
    .on('error', () => response.destroy())
    .pipe(response)
}

/** A file held in memory (readFilesNow), sent in one write. */
export function sendHeldFile(response: ServerResponse, held: HeldFile) {
  response.writeHead(200, fileHeaders(held.contentType, held.bytes.length))
  response.end(held.bytes)
}

function fileHeaders(contentType: string, size: number) {
  return {
    'Content-Type': contentType,
    'Content-Length': size,
    // Vite names built assets by content hash, but a dev rebuild keeps names: do not cache.
    'Cache-Control': 'no-cache',
  }
}

/**
 * The app's index.html with its relative asset references (`./assets/...`, as the Electron
 * build writes them for file://) made absolute, so they resolve from the root even on a client
 * route like `/profiles/abc`. A `<base>` element would do the same but is refused by the page's
 * own `base-uri` policy.
 */
export async function readIndexHtml(root: string): Promise<string | null> {
  const html = await readFile(path.join(root, 'index.html'), 'utf8').catch(() => null)
  if (html === null) return null
  return html.replace(/\b(src|href)="\.\//g, '$1="/')
}

/**
 * The files an index.html as readIndexHtml serves it names (`src="/…"`, `href="/…"`): what the
 * page fetches before its script runs.
 */
export function filesNamedBy(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)="(\/[^"#?]+)"/g)].map((match) => match[1] as string)
}
