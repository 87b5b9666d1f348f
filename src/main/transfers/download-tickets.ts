import { createHash, randomBytes } from 'node:crypto'

/*
 * One-time download tickets for web mode's "Download to this browser". A browser download is a
 * plain navigation: it cannot carry the launch secret's header. So the page asks main, over the
 * bridge (which does need the secret), for a ticket naming one finished transfer; the host then
 * serves that transfer's file to the first request that presents the ticket, and never again.
 * A ticket names a transfer id, never a path: the file served is the one the transfers log
 * recorded, whatever the request says.
 */

/** Long enough for a browser to start the download, short enough that a leaked URL is dead. */
export const TICKET_LIFETIME_MS = 60_000

export type TicketRedemption =
  | { kind: 'valid'; transferId: string }
  /** Presented before, or past its lifetime: the host answers 410 Gone. */
  | { kind: 'spent' }
  /** Never minted here (a guess, a ticket of another launch): 404. */
  | { kind: 'unknown' }

export interface DownloadTickets {
  mint(transferId: string): string
  /** Marks the ticket spent on its first presentation. */
  redeem(ticket: string): TicketRedemption
}

interface Ticket {
  transferId: string
  expiresAt: number
  spent: boolean
}

/** 32 random bytes, base64url: as unguessable as the launch secret. */
const TICKET_PATTERN = /^[\w-]{43}$/

export function createDownloadTickets(now: () => number = Date.now): DownloadTickets {
  // Kept by the ticket's hash, so that the map's lookup never compares secrets byte by byte.
  const tickets = new Map<string, Ticket>()
  const keyOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url')

  /** Spent and expired tickets are kept for one lifetime more (410 rather than 404), then go. */
  const sweep = (at: number) => {
    for (const [key, ticket] of tickets) {
      if (ticket.expiresAt + TICKET_LIFETIME_MS < at) tickets.delete(key)
    }
  }

  return {
    mint(transferId) {
      const at = now()
      sweep(at)
      const ticket = randomBytes(32).toString('base64url')
      tickets.set(keyOf(ticket), { transferId, expiresAt: at + TICKET_LIFETIME_MS, spent: false })
      return ticket
    },
    redeem(ticket) {
      if (!TICKET_PATTERN.test(ticket)) return { kind: 'unknown' }
      const at = now()
      sweep(at)
      const found = tickets.get(keyOf(ticket))
      if (found === undefined) return { kind: 'unknown' }
      if (found.spent || found.expiresAt < at) return { kind: 'spent' }
      found.spent = true
      return { kind: 'valid', transferId: found.transferId }
    },
  }
}
