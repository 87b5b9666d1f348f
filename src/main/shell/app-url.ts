import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/*
 * Where the app's own page lives, and the one test of "is this URL ours?" that navigation
 * guards and the IPC sender check share. URLs are parsed and compared by origin (dev server) or
 * by file path (packaged build), never with startsWith: `http://localhost:5173.evil.test` and
 * `file:///app/index.html/../../etc` must not pass.
 */

export type AppLocation = { kind: 'dev-server'; url: string } | { kind: 'file'; indexHtml: string }

export function appEntryUrl(location: AppLocation): string {
  return location.kind === 'dev-server' ? location.url : pathToFileURL(location.indexHtml).href
}

/**
 * `platform` is the one the app runs on (a parameter so that Windows' rules are tested on any
 * machine): Windows paths are compared as Windows compares them, without regard to case, so a
 * window launched as `c:\…` (a lower-case drive letter from a shortcut or a shell) still
 * recognises its own `file:///C:/…` page, and the other way round.
 */
export function isAppUrl(
  location: AppLocation,
  candidate: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return false
  }
  if (location.kind === 'dev-server') {
    const own = new URL(location.url)
    return url.protocol === own.protocol && url.origin === own.origin
  }
  if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) return false
  const windows = platform === 'win32'
  const paths = windows ? path.win32 : path.posix
  try {
    // fileURLToPath decodes %2e%2e and friends; resolve folds what is left.
    const page = paths.resolve(fileURLToPath(url, { windows }))
    const own = paths.resolve(location.indexHtml)
    return windows ? page.toLowerCase() === own.toLowerCase() : page === own
  } catch {
    return false
  }
}

/**
 * Only https links leave the app, and only to the system browser, which is given this: the URL
 * as parsed and written back by the URL standard (`new URL(candidate).href`), never the raw
 * string; null when not https. Callers pass this, so the browser opens exactly what was checked
 * (no stray spaces, backslashes or case tricks for its own parser to read differently).
 */
export function externalHttpsHref(candidate: string): string | null {
  try {
    const url = new URL(candidate)
    return url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}
