/*
 * Volume export (op 15) streamed to disk with progress, cancel and resume, and the Transfers
 * panel (the log of every export, src/shared/bridge/channels/transfers.ts) (issue 6).
 * Channels and events of this area; contract.ts spreads them into the one bridge contract.
 */

export const volumeChannels = {} as const

export const volumeEvents = {} as const
