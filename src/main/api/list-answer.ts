import { LIST_OPERATIONS, operations, toValidationIssues } from '../../shared/api'
import type { ListOperationName } from '../../shared/api'
import { badResponse, parseAnswer, parseJsonBody } from './answer-checks'
import { readChunks } from './body'
import { parseServiceJson } from './json'
import { JsonRowSplitter, JsonShapeError } from './json-rows'

/*
 * A big list answer (LIST_OPERATIONS: sessions, the inference catalog; 10 MB and more) read as
 * it arrives: each chunk of the body goes through the row splitter (json-rows.ts), each row is
 * parsed and validated with the contract's row schema as soon as it is complete and handed to
 * the caller's sink, and nothing of it is kept here. The envelope (all but the rows) is parsed
 * and validated at the end. Memory: one chunk, one row, the envelope; not the body.
 */

/** One row of a big list answer, validated, as the service sent it. */
export interface ListRow {
  /** The row's JSON text, exactly as in the answer. */
  json: string
  /** The row parsed (numbers kept exact) and validated with the operation's row schema. */
  value: Record<string, unknown>
  /** Its `id` when that is a string. */
  id: string | null
}

/** Where the rows of a list answer go, as they arrive, parsed here (`ServiceClient.callRows`). */
export interface RowByRowSink {
  /**
   * An attempt's body begins. A safe call is retried when its connection breaks, even
   * mid-body: rows handed on before this belong to an attempt that failed, and are void.
   */
  begin(): void
  /** Each row, parsed and validated, in order. Throwing stops the read (callRows throws it). */
  row(row: ListRow): void
}

/** What the sink threw, carried past the client's error mapping to its caller as it is. */
export class SinkFailure extends Error {
  override name = 'SinkFailure'
  constructor(readonly reason: unknown) {
    super('the row sink failed', { cause: reason })
  }
}

/**
 * Where a list answer's raw bytes go to be split and checked somewhere else (the list worker,
 * src/main/workers): main only forwards the body's chunks as they arrive. `end` resolves with
 * the row count once every row and the envelope passed, or rejects with the same BAD_RESPONSE
 * the local read would have thrown; `chunk` throws once the reader elsewhere has failed, so the
 * rest of the body is not read for nothing.
 */
export interface ForwardingSink {
  readonly forwards: true
  begin(): void
  chunk(bytes: Uint8Array): void
  end(answer: { status: number; contentType: string | null }): Promise<number>
}

/** What `callRows` hands a list answer to: rows parsed here, or bytes forwarded elsewhere. */
export type RowSink = RowByRowSink | ForwardingSink

/** Splits, parses and checks one list answer fed chunk by chunk, wherever it runs. */
export interface ListAnswerReader {
  push(chunk: Uint8Array): void
  /** Checks the envelope once the body has ended; returns the row count. */
  finish(answer: { status: number; contentType: string | null }): number
  /** The envelope `finish` checked (all but the rows: a paged list's `meta`); null before. */
  envelope(): unknown
}

/**
 * The reader of one attempt's body: each row parsed, validated and handed to `sink` as soon as
 * its last byte is in. A row or an envelope that breaks the contract throws BAD_RESPONSE naming
 * it; what the sink throws comes out as a SinkFailure.
 */
export function createListAnswerReader(
  name: ListOperationName,
  sink: Pick<RowByRowSink, 'row'>,
): ListAnswerReader {
  const { member, row } = LIST_OPERATIONS[name]
  const prefix = member === null ? [] : [member]
  let index = 0
  let received = 0
  let checkedEnvelope: unknown = null
  const splitter = new JsonRowSplitter(member, (json, inexactNumbers) => {
    let value: unknown
    try {
      value = inexactNumbers ? parseServiceJson(json) : JSON.parse(json)
    } catch {
      throw badResponse(name, `${[...prefix, index].join('.')}: not JSON`)
    }
    const parsed = row.safeParse(value)
    if (!parsed.success) {
      const issues = toValidationIssues(parsed.error).map((issue) => ({
        ...issue,
        path: [...prefix, String(index), ...issue.path],
      }))
      const summary = issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
        .join('; ')
      throw badResponse(name, summary, issues)
    }
    const id = (value as { id?: unknown }).id
    try {
      sink.row({
        json,
        value: value as Record<string, unknown>,
        id: typeof id === 'string' ? id : null,
      })
    } catch (error) {
      throw new SinkFailure(error)
    }
    index += 1
  })

  return {
    push(chunk) {
      received += chunk.byteLength
      try {
        splitter.push(chunk)
      } catch (error) {
        if (!(error instanceof JsonShapeError)) throw error
        throw badResponse(name, `the list could not be read (${error.message})`)
      }
    },
    finish({ status, contentType }) {
      if (received === 0) throw badResponse(name, `HTTP ${status} with an empty body`)
      let envelope: unknown
      try {
        envelope = parseServiceJson(splitter.end())
      } catch (error) {
        if (!(error instanceof JsonShapeError) && !(error instanceof SyntaxError)) throw error
        if (!splitter.started) {
          // No list in it: the whole body was kept, and says precisely what it is instead.
          const body = parseJsonBody(name, status, contentType, splitter.envelopeText())
          parseAnswer(name, operations[name].response, body)
        }
        throw badResponse(name, `the list could not be read (${error.message})`)
      }
      checkedEnvelope = parseAnswer(name, operations[name].response, envelope)
      return splitter.rows
    },
    envelope: () => checkedEnvelope,
  }
}

function forwards(sink: RowSink): sink is ForwardingSink {
  return 'forwards' in sink
}

/**
 * Reads the list answer in `response` (a 2xx) into `sink`; resolves with the row count once
 * the whole body is read and its envelope checked. A row or an envelope that breaks the
 * contract throws BAD_RESPONSE naming it; past `limit` bytes, the client's too-large error.
 * A forwarding sink gets the bytes instead, and says the same at its `end`.
 */
export async function readListAnswer(
  name: ListOperationName,
  response: Response,
  url: URL,
  limit: number,
  sink: RowSink,
): Promise<number> {
  const answer = { status: response.status, contentType: response.headers.get('content-type') }
  try {
    sink.begin()
  } catch (error) {
    throw new SinkFailure(error)
  }
  if (forwards(sink)) {
    await readChunks(response, url, limit, (chunk) => sink.chunk(chunk))
    return sink.end(answer)
  }
  const reader = createListAnswerReader(name, sink)
  await readChunks(response, url, limit, (chunk) => reader.push(chunk))
  return reader.finish(answer)
}
