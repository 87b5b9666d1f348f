import { watch, type FSWatcher } from 'node:fs'
import { lstat, mkdir, open, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { QueryFile, QueryFolder } from '../../shared/bridge/channels/sql-library'
import { MAX_QUERY_FILE_BYTES } from '../../shared/bridge/channels/sql-library'
import { parseQueryHeader } from '../../shared/sql/query-header'
import { ServiceError } from '../api/errors'
import { writeFileAtomicSync } from '../transfers/atomic-file'
import { invalidPath, resolveInLibrary, toLibraryPath } from './paths'

/*
 * The saved-query library: `.sql` files in one folder and its sub-folders, the files being
 * the only store (no index to go stale), so a folder shared through git, edited in another
 * editor or pulled while the app runs is always what is shown. The folder is watched
 * (fs.watch recursive, Linux inotify with Node 22+, macOS and Windows natively); a burst of
 * changes (a `git pull`, our own atomic writes) becomes one `onChange` after a short quiet.
 *
 * Hidden files and folders (`.git`, our temp files) are not listed, nor are symbolic links
 * (one could lead out of the folder; reading through one inside is allowed by paths.ts).
 */

/** How much of a file the listing reads for its header. */
const HEADER_BYTES = 8192

export interface SqlLibraryOptions {
  /** The library's folder now (the setting may change it); made when missing. */
  folder(): string
  /** Called once after a burst of changes on disk settles. */
  onChange(folder: string): void
  /** The quiet that ends a burst (tests may shorten it). */
  debounceMs?: number
}

export interface SearchHit {
  file: QueryFile
  matchedIn: 'name' | 'text'
  line: number | null
  snippet: string | null
}

export interface SqlLibrary {
  list(): Promise<{ folder: string; root: QueryFolder }>
  read(relative: string): Promise<{ file: QueryFile; text: string }>
  save(relative: string, text: string, expectedModifiedAt: number | null): Promise<QueryFile>
  saveAs(relative: string, text: string, overwrite: boolean): Promise<QueryFile>
  rename(from: string, to: string): Promise<QueryFile>
  remove(relative: string): Promise<void>
  search(query: string, limit: number): Promise<SearchHit[]>
  /** Watch the folder the setting names now (after the setting changed). */
  rewatch(): void
  close(): void
}

export function createSqlLibrary(options: SqlLibraryOptions): SqlLibrary {
  const debounceMs = options.debounceMs ?? 200
  let watcher: FSWatcher | null = null
  let watchedFolder: string | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  let closed = false

  async function root(): Promise<string> {
    const folder = options.folder()
    await mkdir(folder, { recursive: true })
    return realpath(folder)
  }

  function changed(): void {
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      if (!closed) options.onChange(options.folder())
    }, debounceMs)
    timer.unref?.()
  }

  function startWatching(): void {
    const folder = options.folder()
    if (closed || watchedFolder === folder) return
    watcher?.close()
    watcher = null
    watchedFolder = folder
    void mkdir(folder, { recursive: true })
      .then(() => {
        if (closed || watchedFolder !== folder) return
        const next = watch(folder, { recursive: true, persistent: false }, changed)
        // A folder removed or unmounted under us: stop watching; listing still works.
        next.on('error', () => next.close())
        watcher = next
      })
      .catch(() => {
        // Not creatable (a read-only mount...): the library lists nothing and says why on use.
      })
  }

  async function describe(realRoot: string, absolute: string): Promise<QueryFile> {
    const info = await stat(absolute)
    const head = await readHead(absolute)
    const header = parseQueryHeader(head)
    return {
      kind: 'file',
      path: toLibraryPath(realRoot, absolute),
      name: path.basename(absolute),
      title: header.title,
      description: header.description,
      parameters: header.parameters,
      modifiedAt: info.mtimeMs,
      size: info.size,
    }
  }

  async function walk(realRoot: string, absolute: string): Promise<QueryFolder> {
    const entries = await readdir(absolute, { withFileTypes: true }).catch(() => [])
    const folders: QueryFolder[] = []
    const files: QueryFile[] = []
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue
      const child = path.join(absolute, entry.name)
      if (entry.isDirectory()) folders.push(await walk(realRoot, child))
      else if (entry.isFile() && /\.sql$/i.test(entry.name)) {
        // A file removed between readdir and stat is simply not listed.
        const file = await describe(realRoot, child).catch(() => null)
        if (file !== null) files.push(file)
      }
    }
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
    return {
      kind: 'folder',
      path: toLibraryPath(realRoot, absolute),
      name: absolute === realRoot ? '' : path.basename(absolute),
      children: [...folders.sort(byName), ...files.sort(byName)],
    }
  }

  async function existingFile(realRoot: string, relative: string): Promise<string> {
    const absolute = await resolveInLibrary(realRoot, relative)
    const info = await stat(absolute).catch(() => null)
    if (info === null || !info.isFile()) throw notFound(relative)
    if (info.size > MAX_QUERY_FILE_BYTES) {
      throw invalidPath(`${relative} is larger than ${MAX_QUERY_FILE_BYTES / 1_000_000} MB`)
    }
    return absolute
  }

  async function write(realRoot: string, absolute: string, text: string): Promise<QueryFile> {
    await mkdir(path.dirname(absolute), { recursive: true })
    // Temp file in the same folder, renamed over the target: never a half-written query.
    // 0644: the folder may be a checkout others read; queries hold no secrets of ours.
    writeFileAtomicSync(absolute, text, 0o644)
    changed()
    return describe(realRoot, absolute)
  }

  startWatching()

  return {
    async list() {
      const realRoot = await root()
      return { folder: options.folder(), root: await walk(realRoot, realRoot) }
    },
    async read(relative) {
      const realRoot = await root()
      const absolute = await existingFile(realRoot, relative)
      const text = await readFile(absolute, 'utf8')
      return { file: await describe(realRoot, absolute), text }
    },
    async save(relative, text, expectedModifiedAt) {
      const realRoot = await root()
      const absolute = await resolveInLibrary(realRoot, relative)
      const current = await stat(absolute).catch(() => null)
      if (current !== null && !current.isFile()) throw invalidPath(`${relative} is a folder`)
      if (
        expectedModifiedAt !== null &&
        current !== null &&
        current.mtimeMs !== expectedModifiedAt
      ) {
        throw new ServiceError(
          'CONFLICT',
          `${relative} changed on disk since it was opened; reopen it or save under another name`,
        )
      }
      return write(realRoot, absolute, text)
    },
    async saveAs(relative, text, overwrite) {
      const realRoot = await root()
      const absolute = await resolveInLibrary(realRoot, relative)
      const current = await lstat(absolute).catch(() => null)
      if (current !== null && (!overwrite || !current.isFile())) {
        throw new ServiceError('CONFLICT', `${relative} already exists`)
      }
      return write(realRoot, absolute, text)
    },
    async rename(from, to) {
      const realRoot = await root()
      const source = await existingFile(realRoot, from)
      const target = await resolveInLibrary(realRoot, to)
      if ((await lstat(target).catch(() => null)) !== null) {
        throw new ServiceError('CONFLICT', `${to} already exists`)
      }
      await mkdir(path.dirname(target), { recursive: true })
      await rename(source, target)
      changed()
      return describe(realRoot, target)
    },
    async remove(relative) {
      const realRoot = await root()
      const absolute = await existingFile(realRoot, relative)
      await rm(absolute)
      changed()
    },
    async search(query, limit) {
      const realRoot = await root()
      const words = query.toLowerCase().split(/\s+/).filter(Boolean)
      const hits: SearchHit[] = []
      const textHits: SearchHit[] = []
      for (const file of filesOf(await walk(realRoot, realRoot))) {
        const label = `${file.path} ${file.title ?? ''}`.toLowerCase()
        if (words.every((word) => label.includes(word))) {
          hits.push({ file, matchedIn: 'name', line: null, snippet: null })
          continue
        }
        if (file.size > MAX_QUERY_FILE_BYTES) continue
        const text = await readFile(path.join(realRoot, ...file.path.split('/')), 'utf8').catch(
          () => null,
        )
        if (text === null) continue
        const lower = text.toLowerCase()
        if (!words.every((word) => label.includes(word) || lower.includes(word))) continue
        const lines = text.split('\n')
        const word = words.find((candidate) => !label.includes(candidate)) ?? words[0]!
        const index = lines.findIndex((line) => line.toLowerCase().includes(word))
        textHits.push({
          file,
          matchedIn: 'text',
          line: index === -1 ? null : index + 1,
          snippet: index === -1 ? null : lines[index]!.trim().slice(0, 200),
        })
      }
      // Name and title matches first: a search for a query's name should find it at the top.
      return [...hits, ...textHits].slice(0, limit)
    },
    rewatch: startWatching,
    close() {
      closed = true
      if (timer !== null) clearTimeout(timer)
      watcher?.close()
      watcher = null
    },
  }
}

function notFound(relative: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No query file ${relative} in the library`)
}

function* filesOf(folder: QueryFolder): Generator<QueryFile> {
  for (const child of folder.children) {
    if (child.kind === 'file') yield child
    else yield* filesOf(child)
  }
}

async function readHead(absolute: string): Promise<string> {
  const handle = await open(absolute, 'r')
  try {
    const buffer = Buffer.alloc(HEADER_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await handle.close()
  }
}
