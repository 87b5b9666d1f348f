import { ServiceError } from './errors'
import { formatBytes, loopTurns, readNext, tooLarge } from './body'
import { SinkFailure } from './list-answer'

/*
 * A GET's 2xx answer handed to a sink as it arrives (`ServiceClient.streamAnswer`): op 15, whose
 * answer is either a small JSON description or, from a real deployment, the `.tar.gz` itself,
 * of any size. The sink decides, once it has seen the headers (or the first bytes), whether the
 * answer is one to hold (JSON: the client's size limit and the attempt's timeout cover it
 * whole, as for any call) or one to stream out (an archive written to disk as it comes: no size
 * limit, and the timeout becomes the longest wait for the next byte, since a big file may take
 * far longer than any call). A safe call is retried when its connection breaks, even mid-body:
 * `begin` is called again and what the sink had of the failed attempt is void.
 */

/** What the sink may ask of the attempt it is reading. */
export interface AnswerControl {
  /**
   * The answer is written out, not held: from now on no size limit applies, and the attempt's
   * timeout counts from the last byte that arrived instead of from the request.
   */
  streamed(): void
}

/** Where a streamed answer's 2xx body goes. */
export interface AnswerSink<T> {
  /** An attempt's 2xx answer begins (again, after a retry: start over). */
  begin(answer: { status: number; headers: Headers }, control: AnswerControl): Promise<void>
  /** Each chunk, in order; the next is read once this resolves. Throwing ends the read. */
  chunk(bytes: Uint8Array): Promise<void>
  /** The body has ended: what the call resolves with. */
  end(): Promise<T>
}

/** The attempt's timeout, which an answer written out turns into a wait between bytes. */
export interface AttemptClock {
  /** Between bytes from now on (AnswerControl.streamed). */
  idle(): void
  /** A byte arrived or was written: an idle clock starts again. */
  touch(): void
}

/**
 * Reads one attempt's body into `sink`. A broken connection is said as such (bodyBreak), with
 * how much had arrived; a held answer past `limit` bytes is refused; what the sink throws that
 * is not a ServiceError comes out as a SinkFailure (the client throws it as it is).
 */
export async function feedAnswer<T>(
  response: Response,
  url: URL,
  sink: AnswerSink<T>,
  limit: number,
  clock: AttemptClock,
): Promise<T> {
  let held = true
  const control: AnswerControl = {
    streamed() {
      held = false
      clock.idle()
    },
  }
  const declared = Number(response.headers.get('content-length'))
  await asSink(() => sink.begin({ status: response.status, headers: response.headers }, control))
  if (held && Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge(url, limit, formatBytes(declared))
  }
  if (response.body !== null) {
    const reader = response.body.getReader()
    let received = 0
    // A held answer is read in slices of main's loop (body.ts); one written out waits on the
    // writer thread between chunks anyway.
    const letLoopTurn = loopTurns()
    for (;;) {
      if (held) await letLoopTurn()
      const next = await readNext(reader, url, received, declared)
      if (next.done) break
      received += next.value.byteLength
      clock.touch()
      try {
        if (held && received > limit) throw tooLarge(url, limit, `more than ${formatBytes(limit)}`)
        await asSink(() => sink.chunk(next.value))
      } catch (error) {
        // Nothing more of this answer is wanted: the connection goes.
        await reader.cancel().catch(() => undefined)
        throw error
      }
      clock.touch()
    }
  }
  return asSink(() => sink.end())
}

/** A sink's own ServiceError (a bad answer, a full disk) stays one; anything else is carried. */
async function asSink<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw error instanceof ServiceError ? error : new SinkFailure(error)
  }
}

/**
 * An attempt's timeout: from the request to the end of the answer, or, once `idle()` is called,
 * from the last byte. Aborts its signal with the same TimeoutError as AbortSignal.timeout.
 */
export function attemptTimer(ms: number): AttemptClock & { signal: AbortSignal; stop(): void } {
  const controller = new AbortController()
  const fire = () =>
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
  let idle = false
  let timer = setTimeout(fire, ms)
  return {
    signal: controller.signal,
    idle() {
      idle = true
      this.touch()
    },
    touch() {
      if (!idle || controller.signal.aborted) return
      clearTimeout(timer)
      timer = setTimeout(fire, ms)
    },
    stop() {
      clearTimeout(timer)
    },
  }
}

/** A clock for attempts without a timeout (a call's `timeoutMs: 0`). */
export const NO_CLOCK: AttemptClock = { idle: () => undefined, touch: () => undefined }
