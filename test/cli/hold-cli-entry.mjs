import { readFile } from 'node:fs/promises'
import { register } from 'node:module'
import { isMainThread } from 'node:worker_threads'

/*
 * `node --import` this before bin/infradesk.mjs to hold the CLI while its entry module loads:
 * the load of src/cli/entry.ts waits until the FIFO named by INFRADESK_HOLD_ENTRY is written and
 * closed. The test knows the child is there once its open of the FIFO for writing returns, so it
 * can signal the CLI during its start without guessing at timings. The hook runs on Node's
 * module-hooks thread, but the CLI's main thread waits for its answer: a signal is taken by a
 * JavaScript handler only once the load is released (a process without one dies at once).
 */

if (isMainThread) register(import.meta.url, { data: process.env.INFRADESK_HOLD_ENTRY })

let fifo = ''

export function initialize(data) {
  fifo = data
}

export async function load(url, context, nextLoad) {
  if (new URL(url).pathname.endsWith('/src/cli/entry.ts')) await readFile(fifo)
  return nextLoad(url, context)
}
