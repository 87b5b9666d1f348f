import type { Command } from 'commander'
import type { Transfer } from '../../shared/bridge'
import type { TransferProgress } from '../../shared/bridge/channels/volumes'
import { CliError } from '../exit-codes'
import { note, writeJson } from '../output'
import { createProgressDisplay } from '../progress'
import type { CommandRunner } from './runner'

/*
 * `infradesk volumes export NODE NAME --out FILE`: the app's `volumes.export` (op 15, then the
 * archive streamed to disk from its link, resumed with Range after a dropped connection, or
 * written from op 15's own answer when the service sends the `.tar.gz` itself; size and SHA-256
 * checked before the rename). The desk answers once the file is open; progress and the end
 * come as its events, as they do to the Transfers panel.
 */

export function volumeCommands(program: Command, run: CommandRunner): void {
  const volumes = program.command('volumes').description('storage volumes')
  volumes
    .command('export')
    .description('download a volume archive (resumed after a cut, SHA-256 checked)')
    .argument('<node>', 'the node id')
    .argument('<name>', 'the volume name')
    .requiredOption('--out <file>', 'where to write the archive (replaced when it exists)')
    .option('--json', 'print path, size and SHA-256 as JSON')
    .action(
      (nodeId: string, name: string, options: { out: string; json?: boolean }, command: Command) =>
        run(command, { needsProfile: true }, async (session) => {
          const progress = createProgressDisplay()
          const finished = new Map<string, Transfer>()
          let waiting: { id: string; resolve: (transfer: Transfer) => void } | null = null
          const stop = session.desk.onEvent((event, payload) => {
            if (event === 'transfers.progress') progress.update(payload as TransferProgress)
            if (event !== 'transfers.finished') return
            const transfer = payload as Transfer
            if (waiting?.id === transfer.id) waiting.resolve(transfer)
            else finished.set(transfer.id, transfer)
          })
          try {
            session.saveNextTo(options.out)
            const started = await session.call('volumes.export', {
              profileId: await session.profileIdToUse(),
              nodeId,
              name,
            })
            progress.start(started.bytesTotal)
            const transfer =
              finished.get(started.id) ??
              (await new Promise<Transfer>((resolve) => {
                waiting = { id: started.id, resolve }
              }))
            progress.stop()
            if (transfer.state !== 'completed') {
              throw CliError.fromBridge({
                code: transfer.errorCode ?? 'INTERNAL_ERROR',
                message: transfer.errorMessage ?? `The export ended ${transfer.state}`,
              })
            }
            const result = {
              path: transfer.destination,
              size: transfer.bytesDone,
              sha256: transfer.sha256,
              transferId: transfer.id,
            }
            if (options.json === true) writeJson(result)
            else note(`Saved ${result.path} (${result.size} bytes, SHA-256 ${result.sha256})`)
          } finally {
            progress.stop()
            stop()
          }
        }),
    )
}
