/*
 * Every remaining operation's screens: migrations, incidents, deployments, routes, jobs, logging, folders, database certificates, app members (issue 8).
 * Channels and events of this area; contract.ts spreads them into the one bridge contract.
 */

export const operationChannels = {} as const

export const operationEvents = {} as const
