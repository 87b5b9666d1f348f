/*
 * Certificates, uploads, certificate and volume exports, transfers (issue 6).
 * Channels and events of this area; contract.ts spreads them into the one bridge contract.
 */

export const certificateChannels = {} as const

export const certificateEvents = {} as const
