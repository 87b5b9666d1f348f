/*
 * The SQL console: queries, results, schema, history, tabs (issue 7).
 * Channels and events of this area; contract.ts spreads them into the one bridge contract.
 */

export const sqlChannels = {} as const

export const sqlEvents = {} as const
