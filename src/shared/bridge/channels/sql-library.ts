import { z } from 'zod'
import { empty } from '../common'
import { PARAMETER_TYPES } from '../../sql/parameters'

/*
 * The SQL console's saved queries: plain `.sql` files in a folder (`<data folder>/queries`, or
 * the folder the setting `sqlLibraryDir` names, e.g. a git checkout a team shares), with
 * sub-folders. Paths cross the bridge relative to that folder, `/`-separated; main refuses any
 * that would leave it. The header format is src/shared/sql/query-header.ts.
 */

/** A path inside the library: relative, `/`-separated, no `.` or `..` segments. */
export const libraryPath = z
  .string()
  .min(1)
  .max(1024)
  .refine((value) => !value.startsWith('/') && !value.includes('\\') && !value.includes('\u0000'), {
    message: 'A path relative to the library folder',
  })
  .refine(
    (value) => value.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    {
      message: 'No empty, "." or ".." parts',
    },
  )

/** A query file's path: a library path ending in `.sql`. */
export const queryFilePath = libraryPath.refine((value) => /\.sql$/i.test(value), {
  message: 'A query file ends in .sql',
})

/** The largest query file the library reads or writes (a query, not a dump). */
export const MAX_QUERY_FILE_BYTES = 1_000_000

export const declaredParameterSchema = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.enum(PARAMETER_TYPES),
    list: z.boolean(),
  }),
)

export const queryFileSchema = z.lazy(() =>
  z.object({
    kind: z.literal('file'),
    /** Relative to the library folder. */
    path: z.string(),
    /** The file name, `.sql` included. */
    name: z.string(),
    /** From the header; null when it has none (the name is shown). */
    title: z.string().nullable(),
    description: z.string().nullable(),
    parameters: z.array(declaredParameterSchema),
    /** Epoch ms of the file's last change: a save names it to notice a change made meanwhile. */
    modifiedAt: z.number(),
    size: z.number(),
  }),
)
export type QueryFile = z.infer<typeof queryFileSchema>

export interface QueryFolder {
  kind: 'folder'
  path: string
  name: string
  children: (QueryFolder | QueryFile)[]
}
export const queryFolderSchema: z.ZodType<QueryFolder> = z.lazy(() =>
  z.object({
    kind: z.literal('folder'),
    path: z.string(),
    name: z.string(),
    children: z.array(z.union([queryFolderSchema, queryFileSchema])),
  }),
)

export const queryTextSchema = z.string().max(MAX_QUERY_FILE_BYTES)

export const sqlLibraryChannels = {
  /** The whole tree, folders first, then files, each by name. */
  'sqlLibrary.list': () => ({
    input: empty,
    output: z.object({
      /** The library's absolute folder, shown so the user knows where the files are. */
      folder: z.string(),
      root: queryFolderSchema,
    }),
  }),
  'sqlLibrary.read': () => ({
    input: z.object({ path: queryFilePath }),
    output: z.object({ file: queryFileSchema, text: z.string() }),
  }),
  /**
   * Writes an existing (or new) file. With `expectedModifiedAt`, a file changed on disk since
   * (a `git pull`, another editor) is not overwritten: CONFLICT, and the user decides.
   */
  'sqlLibrary.save': () => ({
    input: z.object({
      path: queryFilePath,
      text: queryTextSchema,
      expectedModifiedAt: z.number().nullable().default(null),
    }),
    output: queryFileSchema,
  }),
  /** A new file (sub-folders made as needed); CONFLICT when one is there, unless `overwrite`. */
  'sqlLibrary.saveAs': () => ({
    input: z.object({
      path: queryFilePath,
      text: queryTextSchema,
      overwrite: z.boolean().default(false),
    }),
    output: queryFileSchema,
  }),
  /** Renames or moves a file; CONFLICT when the target exists. */
  'sqlLibrary.rename': () => ({
    input: z.object({ from: queryFilePath, to: queryFilePath }),
    output: queryFileSchema,
  }),
  'sqlLibrary.delete': () => ({
    input: z.object({ path: queryFilePath }),
    output: z.null(),
  }),
  /** Files whose name, title or text holds every word of `query` (case-insensitive). */
  'sqlLibrary.search': () => ({
    input: z.object({
      query: z.string().trim().min(1).max(200),
      limit: z.int().min(1).max(500).default(100),
    }),
    output: z.array(
      z.object({
        file: queryFileSchema,
        /** The name or title matched (better), or only the text. */
        matchedIn: z.enum(['name', 'text']),
        /** The first line of the text holding a word, for the result list; null for name matches. */
        line: z.number().nullable(),
        snippet: z.string().nullable(),
      }),
    ),
  }),
} as const

export const sqlLibraryEvents = {
  /** Files changed on disk (by the app or anyone else): the library panel lists again. */
  'sqlLibrary.changed': () => z.object({ folder: z.string() }),
} as const
