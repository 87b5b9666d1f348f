import { createReadStream } from 'node:fs'
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

/**
 * Maps a URL path onto a file under `root`, refusing anything that could step outside it:
 * encoded or literal `..` segments, backslashes (a Windows separator), NUL bytes. The check is
 * made on the decoded segments and again on the resolved path, so neither a clever encoding nor
 * a symlink-free `path.join` surprise can reach a file beyond the renderer folder.
 */
export async function lookupStatic(root: string, urlPath: string): Promise<StaticLookup> {
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
  const info = await stat(file).catch(() => null)
  if (info?.isFile()) {
    const contentType = CONTENT_TYPES[path.extname(file).toLowerCase()]
    // An unknown type is not guessed: with nosniff the browser would refuse it anyway.
    return {
      kind: 'file',
      file,
      contentType: contentType ?? 'application/octet-stream',
      size: info.size,
    }
  }
  // A path without an extension is a client route of the single-page app; a missing asset is a 404.
  return path.extname(relative) === '' ? { kind: 'index' } : { kind: 'not-found' }
}

export function sendFile(
  response: ServerResponse,
  found: { file: string; contentType: string; size: number },
  headOnly: boolean,
) {
  response.writeHead(200, {
    'Content-Type': found.contentType,
    'Content-Length': found.size,
    // Vite names built assets by content hash, but a dev rebuild keeps names: do not cache.
    'Cache-Control': 'no-cache',
  })
  if (headOnly) {
    response.end()
    return
  }
  createReadStream(found.file)
    .on('error', () => response.destroy())
    .pipe(response)
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
