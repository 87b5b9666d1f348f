/*
 * PostgreSQL's own parser (libpg_query, compiled to WebAssembly by the npm package
 * `libpg-query`, PostgreSQL 18's grammar, the major the sandbox's PGlite runs), loaded once per process. It is the guard's source of
 * truth for where statements begin and end and what each one is: a hand-written lexer cannot
 * follow every rule of PostgreSQL's scanner (E-strings continued across lines, `--` ended by
 * CR, which characters are whitespace, dollar-tag lengths...).
 *
 * Why this package: MIT, 1.2 MB of WASM with no native build, maintained with every PostgreSQL
 * major (one package version per grammar), and a synchronous parse (~0.5 ms for a typical
 * statement) once its module has loaded (~50 ms, once).
 */

/** One node of the parse tree: `{ SelectStmt: {...} }`, as libpg_query's JSON has it. */
export type PgNode = Record<string, unknown>

export interface ParsedStatement {
  /** The statement's text in the source, without the `;` that ends it. */
  text: string
  /** Offsets in the source string (UTF-16 code units, as JavaScript counts). */
  start: number
  end: number
  /** The statement node, e.g. `{ SelectStmt: {...} }`. */
  node: PgNode
}

export type ParseOutcome =
  | { ok: true; statements: ParsedStatement[] }
  | {
      ok: false
      /** PostgreSQL's own message, e.g. `syntax error at or near "FORM"`. */
      message: string
      /** 1-based character position in the source, as PostgreSQL reports it; null if none. */
      position: number | null
    }

interface LibPgQuery {
  loadModule(): Promise<void>
  parseSync(query: string): { stmts?: RawStatement[] }
  scanSync(query: string): { tokens?: RawToken[] }
}

interface RawToken {
  start: number
  end: number
  text: string
  tokenName: string
}

/** One token of PostgreSQL's scanner: `SCONST` (a string), `IDENT`, `SQL_COMMENT` .... */
export interface ScannedToken {
  kind: string
  text: string
  /** Offsets in the source string (UTF-16 code units). */
  start: number
  end: number
}

interface RawStatement {
  stmt?: PgNode
  stmt_location?: number
  stmt_len?: number
}

let loading: Promise<LibPgQuery> | null = null
let loaded: LibPgQuery | null = null

/** Loads the parser (once); every later call resolves at once. */
export function loadPgParser(): Promise<void> {
  loading ??= import('libpg-query').then(async (module) => {
    const library = module as unknown as LibPgQuery
    await library.loadModule()
    loaded = library
    return library
  })
  return loading.then(() => undefined)
}

/** Whether `parseSql` can be called (after `loadPgParser()` resolved). */
export function isPgParserLoaded(): boolean {
  return loaded !== null
}

/**
 * Parses `sql` with PostgreSQL's grammar. Synchronous: call `loadPgParser()` first. Text the
 * parser refuses is reported with PostgreSQL's message and position, never guessed at.
 */
export function parseSql(sql: string): ParseOutcome {
  if (loaded === null) throw new Error('The PostgreSQL parser is not loaded (call loadPgParser)')
  let tree: { stmts?: RawStatement[] }
  try {
    tree = loaded.parseSync(sql)
  } catch (error) {
    const details = (error as { sqlDetails?: { message?: unknown; cursorPosition?: unknown } })
      .sqlDetails
    const message =
      typeof details?.message === 'string'
        ? details.message
        : error instanceof Error
          ? error.message
          : String(error)
    const cursor = details?.cursorPosition
    // libpg_query's cursor is a 0-based byte offset; PostgreSQL reports 1-based characters.
    const position =
      typeof cursor === 'number' && cursor >= 0 ? charIndexOfByte(sql, cursor) + 1 : null
    return { ok: false, message, position }
  }
  const byteToChar = byteOffsetMapper(sql)
  const statements: ParsedStatement[] = []
  for (const raw of tree.stmts ?? []) {
    if (raw.stmt === undefined) continue
    const startByte = raw.stmt_location ?? 0
    // A length of 0 (or none) means "to the end of the text" (the last statement).
    const endByte =
      raw.stmt_len === undefined || raw.stmt_len === 0
        ? Buffer.byteLength(sql)
        : startByte + raw.stmt_len
    const start = byteToChar(startByte)
    const end = byteToChar(endByte)
    const slice = sql.slice(start, end)
    // The statement begins at its first significant character; stmt_location counts from
    // the end of the previous statement's `;`, so leading whitespace/comments are cut here.
    const trimmedStart = start + (slice.length - slice.trimStart().length)
    statements.push({
      text: sql.slice(trimmedStart, end).trimEnd(),
      start: trimmedStart,
      end: trimmedStart + sql.slice(trimmedStart, end).trimEnd().length,
      node: raw.stmt,
    })
  }
  return { ok: true, statements }
}

/**
 * The tokens of `sql` as PostgreSQL's scanner reads them (with standard_conforming_strings on);
 * empty when the scanner refuses the text (an unterminated string: the parse refuses it too).
 */
export function scanSql(sql: string): ScannedToken[] {
  if (loaded === null) throw new Error('The PostgreSQL parser is not loaded (call loadPgParser)')
  let tokens: RawToken[]
  try {
    tokens = loaded.scanSync(sql).tokens ?? []
  } catch {
    return []
  }
  const byteToChar = byteOffsetMapper(sql)
  return tokens.map((token) => ({
    kind: token.tokenName,
    text: token.text,
    start: byteToChar(token.start),
    end: byteToChar(token.end),
  }))
}

/** The UTF-16 index of a UTF-8 byte offset into `text`. */
function charIndexOfByte(text: string, byte: number): number {
  return byteOffsetMapper(text)(byte)
}

/** A function from UTF-8 byte offsets of `text` to UTF-16 indices (ASCII: the identity). */
function byteOffsetMapper(text: string): (byte: number) => number {
  // eslint-disable-next-line no-control-regex -- the ASCII range itself
  if (/^[\x00-\x7f]*$/.test(text)) return (byte) => Math.min(byte, text.length)
  // offsets[i]: the byte offset where UTF-16 unit i begins (one entry per unit, and the end).
  const offsets: number[] = []
  let bytes = 0
  for (let index = 0; index < text.length;) {
    const code = text.codePointAt(index) ?? 0
    offsets.push(bytes)
    if (code >= 0x10000) {
      offsets.push(bytes + 2)
      index += 2
    } else {
      index += 1
    }
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
  }
  offsets.push(bytes)
  return (byte) => {
    // The first index whose byte offset reaches `byte` (binary search: offsets ascend).
    let low = 0
    let high = text.length
    while (low < high) {
      const middle = (low + high) >> 1
      if ((offsets[middle] ?? 0) < byte) low = middle + 1
      else high = middle
    }
    return low
  }
}
