/*
 * The transaction blocks a script opens, as runs of its statements: from BEGIN or START
 * TRANSACTION to the COMMIT, END, ROLLBACK, ABORT or PREPARE TRANSACTION that ends it. A
 * service that runs each request on whichever pooled connection is free (a real deployment)
 * keeps a block's meaning only when the whole block goes in one request; the console sends
 * the statements outside blocks one per request, as it always did. Which statement opens or
 * ends a block is read from PostgreSQL's parse tree in main (sql-guard/plan.ts: blockRoleOf).
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

/** A statement's part in a block: opens one, ends one, or neither. */
export interface BlockRole {
  block: 'begin' | 'end' | null
}

/** The script's statements in groups: each block whole, every other statement alone. */
export function groupTransactionBlocks(statements: readonly BlockRole[]): StatementGroup[] {
  const groups: StatementGroup[] = []
  let start = -1
  for (const [index, statement] of statements.entries()) {
    if (start === -1) {
      if (statement.block === 'begin') start = index
      else groups.push({ from: index, to: index + 1, block: false, open: false })
      continue
    }
    if (statement.block === 'end') {
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
