import { lstat, realpath } from 'node:fs/promises'
import path from 'node:path'
import { ServiceError } from '../api/errors'

/*
 * Every path the renderer names is relative to the library folder and must stay inside it:
 * the bridge schema refuses `..`, absolute paths and backslashes, and this resolves what is on
 * disk, so a symbolic link that points out of the folder (or a sub-folder that is one) is
 * refused too. The library may itself be a link (a checkout elsewhere): its real path is
 * the boundary.
 */

export function invalidPath(message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
    details: [{ path: ['path'], message }],
  })
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate)
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
}

/**
 * The absolute path of `relative` in the library. Whatever of it exists is resolved through
 * its links and must land inside the library's real folder; the part that does not exist yet
 * (a new file, new sub-folders) is appended to that.
 */
export async function resolveInLibrary(root: string, relative: string): Promise<string> {
  const parts = relative.split('/')
  if (
    parts.some((part) => part === '' || part === '.' || part === '..') ||
    relative.includes('\\')
  ) {
    throw invalidPath('A path relative to the library folder')
  }
  const realRoot = await realpath(root)
  const lexical = path.join(realRoot, ...parts)
  if (!isInside(realRoot, lexical)) throw invalidPath('Outside the library folder')
  // Walk up to the deepest part that exists, resolve its links, and check it stays inside.
  let existing = lexical
  const missing: string[] = []
  for (;;) {
    const resolved = await realpath(existing).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
      throw error
    })
    if (resolved !== null) {
      if (!isInside(realRoot, resolved))
        throw invalidPath('A link that leads outside the library folder')
      return path.join(resolved, ...missing.reverse())
    }
    // A link whose target is missing resolves to nothing, yet writing through it would
    // create its target, wherever that is.
    if ((await lstat(existing).catch(() => null)) !== null) {
      throw invalidPath('A link that leads outside the library folder')
    }
    missing.push(path.basename(existing))
    existing = path.dirname(existing)
    if (!isInside(realRoot, existing)) throw invalidPath('Outside the library folder')
  }
}

/** The `/`-separated library path of an absolute path inside the real library folder. */
export function toLibraryPath(realRoot: string, absolute: string): string {
  return path.relative(realRoot, absolute).split(path.sep).join('/')
}
