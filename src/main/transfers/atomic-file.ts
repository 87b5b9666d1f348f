import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs'
import { link, open, rename, rm, unlink } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from '../api/errors'
import { numberedFileName, pathInside, safeFileName } from './file-name'
import { threadFile } from './file-writer'
import type { ThreadFile } from './file-writer'
import { WriteBack } from './write-back'

/*
 * Writes that are all or nothing. Bytes go to a hidden temp file beside the target (same folder,
 * so the final rename cannot cross file systems), are fsynced, checked, and only then take the
 * target's name. A failure, a cancel or a crash leaves no file under the target's name: at most
 * a `.infradesk-*.part` temp file, which `abort` removes and a later start may sweep.
 */

/** What happens when the target name is taken at commit time. */
export type Collision =
  /** The user already agreed (a save dialog asked): the old file is replaced atomically. */
  | 'replace'
  /** `name (2).ext`, `name (3).ext`, ...: never overwrite silently (web-mode downloads). */
  | 'number'
  /** FILE_EXISTS error. */
  | 'fail'

export interface CommittedFile {
  /** Absolute path of the file as written (numbered when the name was taken). */
  path: string
  size: number
  /** Lowercase hex SHA-256 of the bytes written. */
  sha256: string
}

export interface CommitOptions {
  collision: Collision
  /** Runs after fsync, before the file takes its name; throw to refuse it (e.g. a bad hash). */
  verify?(written: { size: number; sha256: string }): void | Promise<void>
  /**
   * The name the file takes instead of the one it was opened with: learnt once the answer
   * arrived (its Content-Disposition). Sanitised here as at `create`, with the same fallback.
   */
  name?: string
}

export const TEMP_FILE_PATTERN = /^\.infradesk-[0-9a-f]{16}\.part$/
const MAX_NUMBERED = 9999
/** A file being written; becomes visible under its name only on `commit`. */
export class AtomicFile {
  private written = 0
  /** Writes and hashes the bytes off main's event loop (file-writer.ts). */
  private readonly thread: ThreadFile
  private finished = false
  /** The background fdatasync every FLUSH_EVERY_BYTES written. */
  private readonly writeBack: WriteBack
  /** A write that failed: the file can only be aborted after it. */
  private failedWrite: Error | null = null
  /** The SHA-256 of bytes another thread wrote through the descriptor (`adopt`). */
  private adoptedSha256: string | null = null

  private constructor(
    readonly folder: string,
    /** The safe name the file will take (before any collision numbering). */
    readonly name: string,
    readonly tempPath: string,
    private readonly handle: FileHandle,
    /** What a name that sanitises to nothing becomes. */
    private readonly fallbackName: string | undefined,
  ) {
    this.thread = threadFile(handle.fd)
    this.writeBack = new WriteBack(() => handle.datasync())
  }

  /**
   * Opens a temp file in `folder` for a file to be called `name` (sanitised here: a name from
   * the service or a certificate never chooses a path). `mode` 0o600 by default: exports may
   * hold private keys.
   */
  static async create(
    folder: string,
    name: string,
    options: { mode?: number; fallbackName?: string } = {},
  ): Promise<AtomicFile> {
    const resolvedFolder = path.resolve(folder)
    const safeName = safeFileName(name, options.fallbackName)
    const tempPath = path.join(resolvedFolder, `.infradesk-${randomBytes(8).toString('hex')}.part`)
    let handle: FileHandle
    try {
      handle = await open(tempPath, 'wx', options.mode ?? 0o600)
    } catch (error) {
      throw fileSystemError(error, resolvedFolder)
    }
    return new AtomicFile(resolvedFolder, safeName, tempPath, handle, options.fallbackName)
  }

  /** Bytes written so far. */
  get size(): number {
    return this.written
  }

  /** The temp file's descriptor, for a thread that writes it itself (the download worker). */
  get descriptor(): number {
    return this.handle.fd
  }

  /**
   * Takes the bytes another thread wrote through `descriptor` (and is done writing) as the
   * file's content: `sha256` is theirs, and the commit fsyncs, checks and names them as usual.
   */
  adopt(written: { size: number; sha256: string }): void {
    this.assertOpen()
    if (this.written > 0) throw new Error('the file already has bytes of its own')
    this.written = written.size
    this.adoptedSha256 = written.sha256
  }

  /**
   * Writes `chunk` after the bytes so far and adds it to the SHA-256, both on the writer
   * thread; `chunk` must not change until this resolves. One write at a time.
   */
  async write(chunk: Uint8Array): Promise<void> {
    this.assertOpen()
    try {
      await this.thread.write(chunk, this.written)
    } catch (error) {
      // The file may hold part of the chunk: nothing more may be written or committed.
      this.failedWrite = fileSystemError(error, this.folder)
      throw this.failedWrite
    }
    this.written += chunk.length
    this.writeBack.wrote(this.written)
  }

  /** Empties the file and starts over (a server that ignored a Range request sends it all). */
  async restart(): Promise<void> {
    this.assertOpen()
    try {
      await this.writeBack.settled()
      this.writeBack.restarted()
      await this.handle.truncate(0)
      // After the truncate, the next byte goes at 0 (writes name their position).
      await this.thread.restart()
    } catch (error) {
      throw fileSystemError(error, this.folder)
    }
    this.written = 0
  }

  /** Flushes, verifies and gives the file its name. The temp file is gone either way. */
  async commit(options: CommitOptions): Promise<CommittedFile> {
    this.assertOpen()
    this.finished = true
    const size = this.written
    try {
      let sha256: string
      try {
        sha256 = this.adoptedSha256 ?? (await this.thread.digest())
        await this.writeBack.settled()
        await this.handle.sync()
      } finally {
        await this.handle.close()
      }
      await options.verify?.({ size, sha256 })
      const name =
        options.name === undefined ? this.name : safeFileName(options.name, this.fallbackName)
      const finalPath = await place(this.tempPath, this.folder, name, options.collision)
      await syncFolder(this.folder)
      return { path: finalPath, size, sha256 }
    } catch (error) {
      await rm(this.tempPath, { force: true }).catch(() => undefined)
      throw error instanceof ServiceError ? error : fileSystemError(error, this.folder)
    }
  }

  /** Drops the temp file; safe to call more than once and after a failed commit. */
  async abort(): Promise<void> {
    if (!this.finished) {
      this.finished = true
      // Before the descriptor closes: the thread writes through its number.
      await this.thread.drop()
      await this.writeBack.settled()
      await this.handle.close().catch(() => undefined)
    }
    await rm(this.tempPath, { force: true }).catch(() => undefined)
  }

  private assertOpen() {
    if (this.finished) throw new Error('the file was already committed or aborted')
    if (this.failedWrite) throw this.failedWrite
  }
}

export interface WriteFileOptions extends CommitOptions {
  signal?: AbortSignal
  /** Called after each chunk with the bytes written so far. */
  onProgress?(written: number): void
  mode?: number
  fallbackName?: string
}

/**
 * Writes `source` (bytes, or chunks as they arrive) to `folder/name` atomically. A cancel via
 * `signal` or any failure leaves no file and throws (CANCELLED, NOT_WRITABLE, DISK_FULL, ...).
 */
export async function writeFileAtomic(
  folder: string,
  name: string,
  source: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  options: WriteFileOptions,
): Promise<CommittedFile> {
  const file = await AtomicFile.create(folder, name, {
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.fallbackName === undefined ? {} : { fallbackName: options.fallbackName }),
  })
  try {
    const chunks = source instanceof Uint8Array ? [source] : source
    for await (const chunk of chunks) {
      throwIfCancelled(options.signal)
      await file.write(chunk)
      options.onProgress?.(file.size)
    }
    throwIfCancelled(options.signal)
    return await file.commit(options)
  } catch (error) {
    await file.abort()
    throw error
  }
}

function throwIfCancelled(signal: AbortSignal | undefined) {
  if (signal?.aborted) {
    throw new ServiceError(APP_ERROR_CODES.CANCELLED, 'Cancelled: no file was written')
  }
}

/** Moves the finished temp file to its name, by the collision rule; returns the final path. */
async function place(
  tempPath: string,
  folder: string,
  name: string,
  collision: Collision,
): Promise<string> {
  if (collision === 'replace') {
    const target = pathInside(folder, name)
    await rename(tempPath, target)
    return target
  }
  const attempts = collision === 'number' ? MAX_NUMBERED : 1
  for (let n = 1; n <= attempts; n += 1) {
    const target = pathInside(folder, n === 1 ? name : numberedFileName(name, n))
    // link() fails with EEXIST instead of replacing: a race-free "create if absent".
    try {
      await link(tempPath, target)
    } catch (error) {
      if (errorCode(error) === 'EEXIST') continue
      throw error
    }
    await unlink(tempPath)
    return target
  }
  throw new ServiceError(
    APP_ERROR_CODES.FILE_EXISTS,
    collision === 'fail'
      ? `${name} already exists in ${folder}; it was not replaced`
      : `${name} and ${MAX_NUMBERED - 1} numbered variants already exist in ${folder}`,
    { details: [{ path: ['fileName'], message: 'A file with this name exists' }] },
  )
}

/** Makes the rename itself durable (Linux, macOS); folders cannot be opened on Windows. */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return
  try {
    const handle = await open(folder, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Durability of the folder entry is best effort; the file's own bytes were fsynced.
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** A file-system failure in words a user can act on (never a stack trace or a bare errno). */
export function fileSystemError(error: unknown, folder: string): ServiceError {
  if (error instanceof ServiceError) return error
  const code = errorCode(error)
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new ServiceError(
        APP_ERROR_CODES.DISK_FULL,
        `The disk holding ${folder} is full: free some space and try again. No file was written.`,
        { cause: error },
      )
    case 'ENOENT':
    case 'ENOTDIR':
      return new ServiceError(
        APP_ERROR_CODES.NOT_WRITABLE,
        `The folder ${folder} does not exist: choose another folder.`,
        { cause: error, details: [{ path: ['folder'], message: 'No such folder' }] },
      )
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ServiceError(
        APP_ERROR_CODES.NOT_WRITABLE,
        `Infradesk may not write to ${folder}${code === 'EROFS' ? ' (read-only file system)' : ''}: choose another folder.`,
        { cause: error, details: [{ path: ['folder'], message: 'Not writable' }] },
      )
    case 'EEXIST':
      return new ServiceError(
        APP_ERROR_CODES.FILE_EXISTS,
        `A file of that name exists in ${folder}`,
        {
          cause: error,
        },
      )
    default:
      return new ServiceError(
        APP_ERROR_CODES.NOT_WRITABLE,
        `Could not write to ${folder}${code ? ` (${code})` : ''}. No file was written.`,
        { cause: error },
      )
  }
}

/**
 * Small files written whole and at once (profiles.json, settings.json): a temp file in the same
 * folder, flushed, renamed over the target, so a reader sees the old file or the new, never half.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, mode = 0o600): void {
  const temp = path.join(
    path.dirname(file),
    `${syncTempPrefix(file)}${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  )
  try {
    const fd = openSync(temp, 'wx', mode)
    try {
      if (typeof data === 'string') writeSync(fd, data)
      else writeSync(fd, data)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, file)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

function syncTempPrefix(file: string): string {
  return `.${path.basename(file)}.`
}

/** Temp files a crash left behind mid-`writeFileAtomicSync`; only ours, by their name pattern. */
export function removeStaleTempFiles(file: string): void {
  const prefix = syncTempPrefix(file)
  for (const name of readdirSync(path.dirname(file))) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) {
      rmSync(path.join(path.dirname(file), name), { force: true })
    }
  }
}
