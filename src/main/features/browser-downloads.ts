import { stat } from 'node:fs/promises'
import path from 'node:path'
import { WEB_DOWNLOAD_PREFIX } from '../../shared/bridge/web-protocol'
import { ServiceError } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DownloadTickets } from '../transfers/download-tickets'
import type { HostedDownload } from '../web/download'
import type { DeskContext } from './context'

/*
 * Web mode's "Download to this browser": the files exports wrote are on the host's
 * disk, which is no use to a browser on another machine. The page asks for a one-time ticket
 * for a finished transfer (a bridge call, so it took the launch secret); the web host serves
 * that transfer's file to the first request that presents it (web/download.ts).
 */

export function browserDownloadHandlers(
  context: DeskContext,
  tickets: DownloadTickets,
): Pick<BridgeHandlers, 'transfers.downloadTicket'> {
  return {
    async 'transfers.downloadTicket'({ transferId }) {
      if (context.mode !== 'web') {
        throw new ServiceError('NOT_FOUND', 'Downloads to a browser exist in web mode only')
      }
      const file = await finishedFile(context, transferId)
      if (file === null) {
        throw new ServiceError(
          'NOT_FOUND',
          'This transfer has no file on the host: it did not finish, or the file was moved or deleted',
        )
      }
      return { path: `${WEB_DOWNLOAD_PREFIX}${tickets.mint(transferId)}` }
    },
  }
}

/** What the web host serves for a ticket; spends the ticket. */
export async function openHostedDownload(
  context: DeskContext,
  tickets: DownloadTickets,
  ticket: string,
): Promise<HostedDownload> {
  const redeemed = tickets.redeem(ticket)
  if (redeemed.kind !== 'valid') return redeemed
  const file = await finishedFile(context, redeemed.transferId)
  return file === null ? { kind: 'missing' } : { kind: 'file', ...file }
}

/** The file a completed transfer wrote, if it is still there. */
async function finishedFile(
  context: DeskContext,
  transferId: string,
): Promise<{ path: string; fileName: string; size: number } | null> {
  const transfer = context.transfers.get(transferId)
  if (transfer?.state !== 'completed' || transfer.destination === null) return null
  const info = await stat(transfer.destination).catch(() => null)
  if (!info?.isFile()) return null
  return {
    path: transfer.destination,
    fileName: path.basename(transfer.destination),
    size: info.size,
  }
}
