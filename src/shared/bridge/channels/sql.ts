import { z } from 'zod'
import { id } from '../common'
import { bridgeErrorSchema } from '../result'

/*
 * The SQL console: queries, results, schema, history, tabs.
 *
 * A result never crosses the bridge whole. `sql.run` answers with the result's meta and its
 * first rows; main keeps the parsed rows in a bounded result store under `resultId`, and the
 * grid asks for windows of rows (`sql.rows`) as it scrolls. Sorting, copying and saving run in
 * main over the kept rows. Cells cross as display text, exact as the service sent them (int8,
 * numeric and big JSON numbers are never rounded through a float); null is SQL NULL.
 */

/** A cell as displayed: the value's exact text, or null for SQL NULL. */
export const sqlCellSchema = z.string().nullable()
export const sqlRowSchema = z.lazy(() => z.array(sqlCellSchema))

export const sqlFieldSchema = z.lazy(() =>
  z.object({
    name: z.string(),
    /** PostgreSQL's type name as the service reported it ("int8", "jsonb"); "" when unknown. */
    dataType: z.string(),
    /** How the grid shows it: numbers right-aligned, JSON opened pretty-printed. */
    display: z.enum(['number', 'json', 'boolean', 'text']),
  }),
)
export type SqlField = z.infer<typeof sqlFieldSchema>

/** The most rows one call may ask for (a grid window, a copied range is done in main). */
export const SQL_MAX_WINDOW = 2000
/**
 * The most rows a tab may ask. A service may allow fewer (published code of this service:
 * 2,000); main learns that bound from its refusal and asks at most that (meta.rowLimit).
 */
export const SQL_MAX_ROWS = 100_000
/** 1 MiB of SQL is far more than an editor holds and less than the web host's body limit. */
const sqlText = z.string().min(1, 'Enter a statement').max(1_000_000)

export const sqlResultMetaSchema = z.lazy(() =>
  z.object({
    resultId: z.string(),
    /** The command tag: SELECT, UPDATE, CREATE TABLE... */
    command: z.string(),
    /** Rows the statement returned or affected, as the service counted them (null: not said). */
    rowCount: z.number().nullable(),
    /** Rows kept in main for the grid (at most maxRows). */
    rows: z.number(),
    fields: z.array(sqlFieldSchema),
    /** The service stopped at maxRows: only the first `rows` rows are here. */
    truncated: z.boolean(),
    /**
     * What cut it: the row limit asked (`rows`), or the service's size limit (`size`: a real
     * deployment keeps 512 KiB of rows per result; a note says it in words). Absent: rows.
     */
    truncatedBy: z.enum(['rows', 'size']).nullable().optional(),
    /** The maxRows sent (the tab's, or the service's bound when lower); null: the service's default. */
    maxRows: z.number().nullable(),
    /**
     * Set when this service holds op 5 to fewer rows than the tab asked (it refused more with
     * VALIDATION_ERROR on maxRows, and the app remembers its bound per profile): the run asked
     * `max`. The screen says "this service returns at most `max` rows per statement".
     */
    rowLimit: z.object({ max: z.number(), asked: z.number() }).nullable(),
    /** What the app read in a way the user should know of: the answer's shape, a refused maxRows. */
    notes: z.array(z.string()),
    /** The service's own time for the statement, when it says. */
    durationMs: z.number().nullable(),
    /** Run to answer, measured in main (network and parsing included). */
    elapsedMs: z.number(),
    /** Of elapsedMs, the time main spent parsing the answer. */
    parseMs: z.number(),
    /** When the service's answer was fully read (epoch ms, sub-ms precision), for timings. */
    receivedAt: z.number(),
    /**
     * False while main is still parsing the rest of a big answer (rows and truncated are then
     * the service's count within maxRows); `sql.result.completed` follows with the exact ones.
     */
    complete: z.boolean(),
    /** The first window of rows, so the grid paints without a second round trip. */
    firstRows: z.array(sqlRowSchema),
  }),
)
export type SqlResultMeta = z.infer<typeof sqlResultMetaSchema>

/** Where a statement runs and how it is guarded. */
const runTarget = z.object({
  profileId: id,
  databaseId: id,
  /** The editor tab it came from (its results are released together when it closes). */
  tabId: id,
  /** Chosen by the renderer so `sql.cancel` can name the run before it answers. */
  runId: id,
  /** A read-only tab: anything the classifier cannot prove read-only is refused. */
  readOnly: z.boolean().default(false),
  /**
   * The user confirmed this statement as a write (protected profiles ask first). Main checks
   * again: a protected profile's unconfirmed write is refused, never sent.
   */
  confirmedWrite: z.boolean().default(false),
})

export const sqlTabSchema = z.object({
  id,
  profileId: id,
  title: z.string().max(200),
  databaseId: z.string().max(200),
  text: z.string().max(1_000_000),
  maxRows: z.int().min(1).max(SQL_MAX_ROWS),
  readOnly: z.boolean(),
  position: z.int().min(0),
  updatedAt: z.number(),
})
export type SqlTab = z.infer<typeof sqlTabSchema>

export const sqlHistoryEntrySchema = z.lazy(() =>
  z.object({
    id: z.number(),
    profileId: z.string(),
    databaseId: z.string(),
    sql: z.string(),
    /** Epoch ms. */
    startedAt: z.number(),
    /** Run to answer, ms. */
    durationMs: z.number(),
    rowCount: z.number().nullable(),
    command: z.string().nullable(),
    outcome: z.enum(['success', 'error', 'cancelled']),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
  }),
)
export type SqlHistoryEntry = z.infer<typeof sqlHistoryEntrySchema>

export const sqlColumnInfoSchema = z.lazy(() =>
  z.object({
    name: z.string(),
    dataType: z.string(),
    nullable: z.boolean(),
  }),
)
export const sqlRelationSchema = z.lazy(() =>
  z.object({
    name: z.string(),
    kind: z.enum(['table', 'view', 'materialized view', 'foreign table', 'other']),
    columns: z.array(sqlColumnInfoSchema),
  }),
)
export const sqlSchemaTreeSchema = z.lazy(() =>
  z.object({
    schemas: z.array(z.object({ name: z.string(), relations: z.array(sqlRelationSchema) })),
  }),
)
export type SqlSchemaTree = z.infer<typeof sqlSchemaTreeSchema>

const cachedSchema = z.lazy(() =>
  z.object({
    tree: sqlSchemaTreeSchema.nullable(),
    /** When it was read from the database (epoch ms); null when never. */
    fetchedAt: z.number().nullable(),
  }),
)

/** A row of a comparison: the row's cells (the new ones; a removed row's old ones). */
export const sqlDiffRowSchema = z.lazy(() =>
  z.object({
    kind: z.enum(['added', 'removed', 'changed']),
    cells: z.array(sqlCellSchema),
    /** A changed row's pinned cells, so the grid can show what each changed cell was. */
    previous: z.array(sqlCellSchema).nullable(),
    /** A changed row's columns whose text differs. */
    changed: z.array(z.number()),
  }),
)
export type SqlDiffRow = z.infer<typeof sqlDiffRowSchema>

/** A `:name` placeholder of a statement, found by PostgreSQL's own scanner (main). */
export const sqlPlaceholderSchema = z.object({
  /** The name without its colon, as written. */
  name: z.string(),
  /** Offsets of `:name` in the statement's text: [from, to). */
  from: z.number(),
  to: z.number(),
  /** Where a table or column name goes: cannot be bound to a value. */
  inIdentifierPosition: z.boolean(),
})
export type SqlPlaceholder = z.infer<typeof sqlPlaceholderSchema>

/**
 * One statement of a text as main's guard reads it (PostgreSQL's parser, src/main/sql-guard):
 * where it is, what it does, and what `sql.run`/`sql.explain` would refuse or ask about.
 */
export const sqlPlannedStatementSchema = z.object({
  text: z.string(),
  /** Offsets in the planned text: [from, to). */
  from: z.number(),
  to: z.number(),
  /** The command in words (SELECT, DELETE, COMMIT …). */
  command: z.string(),
  kind: z.enum(['read', 'write', 'transaction']),
  /** Why it is not a read (a write's or transaction control's reason); null for a read. */
  reason: z.string().nullable(),
  /** Why it destroys much at once (DELETE without WHERE, DROP …); null otherwise. */
  destructive: z.string().nullable(),
  /** Why a read-only tab refuses it; null when a read-only tab sends it. */
  readOnlyRefusal: z.string().nullable(),
  /** PostgreSQL's parser refuses this statement alone (never a read then). */
  refused: z.boolean(),
  /** Opens (BEGIN, START TRANSACTION) or ends (COMMIT, END, ROLLBACK …) a transaction block. */
  block: z.enum(['begin', 'end']).nullable(),
  placeholders: z.array(sqlPlaceholderSchema),
})
export type SqlPlannedStatement = z.infer<typeof sqlPlannedStatementSchema>

export const SQL_COPY_FORMATS = ['tsv', 'csv', 'json', 'markdown'] as const
export const SQL_SAVE_FORMATS = ['csv', 'json'] as const

export const sqlChannels = {
  /** Runs one statement (op 5): the meta and first rows; the rest stays in main. */
  'sql.run': () => ({
    input: runTarget.extend({
      sql: sqlText,
      maxRows: z.int().min(1).max(SQL_MAX_ROWS),
    }),
    output: sqlResultMetaSchema,
  }),
  /**
   * Runs a transaction block of a script (BEGIN … COMMIT, shared/sql/transaction-blocks.ts) so
   * that it keeps its meaning. A service that runs each statement of a request on its own, on
   * one of its pooled connections (a real deployment), gets the block in one request: one
   * result per statement (null: the service sent none for it). A service that keeps one session
   * gets the statements one per request as usual: `separately`, and the console runs them so.
   * A failure is the block's: the service does not say which of its statements failed.
   */
  'sql.runBlock': () => ({
    input: runTarget.extend({
      statements: z.array(sqlText).min(1).max(1000),
      maxRows: z.int().min(1).max(SQL_MAX_ROWS),
    }),
    output: z.union([
      z.object({ results: z.array(sqlResultMetaSchema.nullable()) }),
      z.object({ separately: z.literal(true) }),
    ]),
  }),
  /**
   * EXPLAIN (FORMAT JSON) of one statement; with `analyze` the statement runs, and counts as
   * the write it is. The plan comes back as PostgreSQL's JSON.
   */
  'sql.explain': () => ({
    input: runTarget.extend({ sql: sqlText, analyze: z.boolean().default(false) }),
    output: z.object({ plan: z.unknown(), elapsedMs: z.number() }),
  }),
  /**
   * How main's guard reads a text before anything is sent: its statements (PostgreSQL's own
   * parse; where the parser refuses the text, its scanner's top-level `;`), each one's verdict
   * as `sql.run` (or `sql.explain` in an explain mode) would judge it alone, and its `:name`
   * placeholders. Run all, the parameter form and the pre-send hint use it; nothing is sent,
   * except (once per database, when a backslash literal makes it matter) the app's own
   * `SHOW standard_conforming_strings`.
   */
  'sql.plan': () => ({
    input: z.object({
      sql: z.string().max(1_000_000),
      mode: z.enum(['run', 'explain', 'explain-analyze']).default('run'),
      /** The tab's profile and database, to read literals as that database does. */
      profileId: id.optional(),
      databaseId: z.string().max(200).optional(),
    }),
    output: z.object({
      statements: z.array(sqlPlannedStatementSchema),
      /** PostgreSQL's refusal of the whole text (statements then split by its scanner). */
      parserError: z.object({ message: z.string(), position: z.number().nullable() }).nullable(),
    }),
  }),
  /** Aborts the run's request. The service has no cancel: the statement may still finish. */
  'sql.cancel': () => ({
    input: z.object({ runId: id }),
    output: z.object({ cancelled: z.boolean() }),
  }),
  /** A window of a kept result's rows, in its current sort order. */
  'sql.rows': () => ({
    input: z.object({
      resultId: id,
      offset: z.int().min(0),
      limit: z.int().min(1).max(SQL_MAX_WINDOW),
    }),
    output: z.object({ offset: z.number(), rows: z.array(sqlRowSchema) }),
  }),
  /** One cell's whole value (the grid's text may be clipped), for the value panel. */
  'sql.cell': () => ({
    input: z.object({ resultId: id, row: z.int().min(0), column: z.int().min(0) }),
    output: z.object({ value: sqlCellSchema }),
  }),
  /** Sorts the kept rows by one column (null: back to the service's order). */
  'sql.sort': () => ({
    input: z.object({
      resultId: id,
      column: z.int().min(0).nullable(),
      direction: z.enum(['asc', 'desc']).default('asc'),
    }),
    output: z.null(),
  }),
  /** Rows [from, to) in display order, or all of them, as text for the clipboard. */
  'sql.copy': () => ({
    input: z.object({
      resultId: id,
      format: z.enum(SQL_COPY_FORMATS),
      range: z.object({ from: z.int().min(0), to: z.int().min(0) }).optional(),
      headers: z.boolean().default(true),
    }),
    output: z.object({ text: z.string(), rows: z.number() }),
  }),
  /**
   * Saves the whole kept result as CSV or JSON, streamed through the atomic writer: the
   * downloads folder in web mode, a save dialog on the desktop (path null: cancelled there).
   */
  'sql.save': () => ({
    input: z.object({ profileId: id, resultId: id, format: z.enum(SQL_SAVE_FORMATS) }),
    output: z.object({ path: z.string().nullable(), bytes: z.number(), rows: z.number() }),
  }),
  /**
   * Compares two kept results with the same columns by a key column, in main's SQL worker:
   * the new result `after` against the pinned `before`. The comparison is kept
   * under `comparisonId` (released with `sql.release`); its rows are read by window. Refused
   * with COMPARE_REFUSED when the columns differ or the key is NULL or repeats.
   */
  'sql.compare': () => ({
    input: z.object({
      comparisonId: id,
      before: id,
      after: id,
      keyColumn: z.int().min(0),
    }),
    output: z.object({
      added: z.number(),
      removed: z.number(),
      changed: z.number(),
      unchanged: z.number(),
    }),
  }),
  /** A window of a comparison's rows: changed and added in the new result's order, then removed. */
  'sql.compare.rows': () => ({
    input: z.object({
      comparisonId: id,
      offset: z.int().min(0),
      limit: z.int().min(1).max(SQL_MAX_WINDOW),
    }),
    output: z.object({ offset: z.number(), rows: z.array(sqlDiffRowSchema) }),
  }),
  /** Drops kept results and comparisons (a new run in the tab, or the tab closed). */
  'sql.release': () => ({
    input: z.object({ resultIds: z.array(id).max(1000) }),
    output: z.null(),
  }),

  'sql.schema.cached': () => ({
    input: z.object({ profileId: id, databaseId: id }),
    output: cachedSchema,
  }),
  /** Reads schemas, tables, views and columns through op 5 and caches them. */
  'sql.schema.refresh': () => ({
    input: z.object({ profileId: id, databaseId: id }),
    output: cachedSchema,
  }),

  'sql.tabs.list': () => ({ input: z.object({ profileId: id }), output: z.array(sqlTabSchema) }),
  /** Creates or updates a tab (its text is saved as the user types, debounced). */
  'sql.tabs.save': () => ({ input: sqlTabSchema.omit({ updatedAt: true }), output: sqlTabSchema }),
  /** Closes a tab: it is forgotten, and its kept results released. */
  'sql.tabs.close': () => ({ input: z.object({ id }), output: z.null() }),

  'sql.history.list': () => ({
    input: z.object({
      profileId: id,
      databaseId: z.string().max(200).optional(),
      search: z.string().max(500).optional(),
      limit: z.int().min(1).max(1000).default(200),
    }),
    output: z.array(sqlHistoryEntrySchema),
  }),
} as const

export const sqlEvents = {
  /** The rest of a big answer was parsed (or could not be): the exact counts, or the error. */
  'sql.result.completed': () =>
    z.object({
      resultId: z.string(),
      rows: z.number(),
      rowCount: z.number().nullable(),
      truncated: z.boolean(),
      durationMs: z.number().nullable(),
      elapsedMs: z.number(),
      parseMs: z.number(),
      error: bridgeErrorSchema.nullable(),
    }),
} as const

/** Bridge error codes of this area (beside the service's and APP_ERROR_CODES). */
export const SQL_ERROR_CODES = {
  /** A read-only tab refused a statement that is not proven read-only. */
  READ_ONLY_TAB: 'READ_ONLY_TAB',
  /** A protected profile's write was sent without the user's confirmation. */
  WRITE_NOT_CONFIRMED: 'WRITE_NOT_CONFIRMED',
  /**
   * UPDATE/DELETE without WHERE, DROP or TRUNCATE was sent without the user's confirmation while
   * the setting `confirmDestructive` is on (any profile).
   */
  DESTRUCTIVE_NOT_CONFIRMED: 'DESTRUCTIVE_NOT_CONFIRMED',
  /** The kept result was released (tab closed, or pushed out by newer results). */
  RESULT_RELEASED: 'RESULT_RELEASED',
  /** Two results that cannot be compared by the chosen key (columns differ, NULL or repeated keys). */
  COMPARE_REFUSED: 'COMPARE_REFUSED',
} as const
