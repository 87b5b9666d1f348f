import { performance } from 'node:perf_hooks'
import { describe, expect, it } from 'vitest'
import { readBounded, readChunks } from '../../src/main/api/body'

/*
 * Reading an answer's body (src/main/api/body.ts). A body whose bytes are all there already
 * (a socket with a full receive buffer, here a stream with every chunk queued) must still let
 * main's event loop turn while it is read: each chunk costs the reader real work, and a 10 MB
 * list read in one go held the loop for 30-45 ms at a time (bench `stalls`).
 */

const URL_OF_TEST = new URL('http://service.test/answer')
const CHUNKS = 40

/** A response whose body has every chunk queued before anything reads it. */
function queuedResponse(chunks: Uint8Array[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
  return new Response(body)
}

/** Stands in for what a chunk costs its reader (fetch, the row splitter, a worker's copy). */
function work(ms: number) {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // Busy on purpose: this is the CPU a chunk takes, not a wait.
  }
}

describe('readChunks', () => {
  it('lets the event loop turn while a body that is all there is read', async () => {
    const chunks = Array.from({ length: CHUNKS }, (_, index) => new Uint8Array([index]))
    let turns = 0
    let turning = true
    const countTurns = () => {
      if (!turning) return
      turns += 1
      setImmediate(countTurns)
    }
    setImmediate(countTurns)
    const turnsAtChunk: number[] = []
    await readChunks(queuedResponse(chunks), URL_OF_TEST, 1024, (chunk) => {
      turnsAtChunk.push(turns)
      expect(chunk[0]).toBe(turnsAtChunk.length - 1)
      work(1)
    })
    turning = false
    expect(turnsAtChunk).toHaveLength(CHUNKS)
    // 40 chunks of 1 ms each: the loop turned between some of them, not only before or after.
    const first = turnsAtChunk[0] as number
    const last = turnsAtChunk[CHUNKS - 1] as number
    expect(last).toBeGreaterThan(first)
  })

  it('keeps every byte in order across the turns', async () => {
    const chunks = Array.from({ length: CHUNKS }, (_, index) => new Uint8Array([index, index]))
    const whole = await readBounded(queuedResponse(chunks), URL_OF_TEST, 1024)
    expect([...whole]).toEqual(chunks.flatMap((chunk) => [...chunk]))
  })

  it('still refuses a body past its limit', async () => {
    const chunks = Array.from({ length: CHUNKS }, () => new Uint8Array(10))
    await expect(readBounded(queuedResponse(chunks), URL_OF_TEST, 100)).rejects.toThrow(/too large/)
  })
})
