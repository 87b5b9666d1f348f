import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs'

/*
 * The data folder holds the profiles, settings, the window state and the SQLite cache (lists of
 * sessions, certificates, the activity log): none of it is for other users of the machine. On
 * POSIX the folder is 0700 and every file the app writes there 0600, whatever the umask: modes
 * are given when a file is created and set again with chmod, because the umask only ever takes
 * bits away and a file left by an older version (or created by hand) may be looser. Windows has
 * no such modes (the profile folder's ACLs apply); nothing is changed there.
 */

export const PRIVATE_FOLDER_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

const posix = process.platform !== 'win32'

/**
 * Creates the data folder 0700, or tightens an existing one that is the app's own: empty (made
 * for us), or holding one of `appFileNames`. Any other existing folder (a `--data-dir` that
 * points at a folder of the user's) keeps its mode: the app's files in it are 0600 all the same.
 */
export function preparePrivateFolder(folder: string, appFileNames: readonly string[]): void {
  const existed = isDirectory(folder)
  makePrivateFolder(folder)
  if (!posix) return
  if (!existed || isAppFolder(folder, appFileNames)) tightenMode(folder, PRIVATE_FOLDER_MODE)
}

/**
 * Makes sure `file` exists and is 0600 before another library opens it: SQLite creates its
 * `-wal` and `-shm` files with the mode of the database file, so they follow.
 */
export function ensurePrivateFile(file: string): void {
  // 'a': created when missing, never truncated when present.
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE))
  tightenPrivateFile(file)
}

/** Sets an existing file back to 0600 when it is looser; a missing file is fine. */
export function tightenPrivateFile(file: string): void {
  if (!posix) return
  try {
    tightenMode(file, PRIVATE_FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/**
 * Creates a folder of the data folder's files (0700, parents included) without changing one that
 * exists: whether an existing folder is tightened is decided once, by preparePrivateFolder.
 */
export function makePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE })
}

function tightenMode(target: string, mode: number): void {
  if ((statSync(target).mode & 0o777) !== mode) chmodSync(target, mode)
}

function isDirectory(folder: string): boolean {
  try {
    return statSync(folder).isDirectory()
  } catch {
    return false
  }
}

function isAppFolder(folder: string, appFileNames: readonly string[]): boolean {
  const names = readdirSync(folder)
  return names.length === 0 || names.some((name) => appFileNames.includes(name))
}
