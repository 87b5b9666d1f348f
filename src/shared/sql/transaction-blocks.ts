import { commandOf } from './classifier'
import type { Statement } from './splitter'

/*
 * The transaction blocks a script opens, as runs of its statements: from BEGIN or START
 * TRANSACTION to the COMMIT, END, ROLLBACK, ABORT or PREPARE TRANSACTION that ends it. A
 * service that runs each request on whichever pooled connection is free (a real deployment)
 * keeps a block's meaning only when the whole block goes in one request; the console sends
 * the statements outside blocks one per request, as it always did.
 */

export interface StatementGroup {
  /** Index of the group's first statement in the script. */
  from: number
  /** Index after its last. */
  to: number
  /** A transaction block the script opens (two statements or more). */
  block: boolean
  /** The block is not ended by the end of the script. */
  open: boolean
}

/** The script's statements in groups: each block whole, every other statement alone. */
export function groupTransactionBlocks(statements: readonly Statement[]): StatementGroup[] {
  const groups: StatementGroup[] = []
  let start = -1
  for (const [index, statement] of statements.entries()) {
    if (start === -1) {
      if (opensBlock(statement.text)) start = index
      else groups.push({ from: index, to: index + 1, block: false, open: false })
      continue
    }
    if (endsBlock(statement.text)) {
      groups.push({ from: start, to: index + 1, block: true, open: false })
      start = -1
    }
  }
  if (start !== -1) {
    const block = statements.length - start > 1
    groups.push({ from: start, to: statements.length, block, open: true })
  }
  return groups
}

function words(text: string): string[] {
  return text.toLowerCase().split(/\s+/, 3)
}

function opensBlock(text: string): boolean {
  const command = commandOf(text)
  if (command === 'begin') return true
  return command === 'start' && words(text)[1] === 'transaction'
}

/** COMMIT/ROLLBACK AND CHAIN start the next transaction at once: the block goes on. */
function endsBlock(text: string): boolean {
  const command = commandOf(text)
  const lower = text.toLowerCase()
  if (/\band\s+chain\b/.test(lower) && !/\band\s+no\s+chain\b/.test(lower)) return false
  if (command === 'commit' || command === 'end' || command === 'abort') {
    // COMMIT PREPARED ends another, prepared transaction; it cannot run inside a block.
    return words(text)[1] !== 'prepared'
  }
  if (command === 'rollback') {
    const second = words(text)[1]
    // ROLLBACK TO [SAVEPOINT] stays in the block; ROLLBACK PREPARED is another transaction's.
    return second !== 'to' && second !== 'prepared'
  }
  return command === 'prepare' && words(text)[1] === 'transaction'
}
