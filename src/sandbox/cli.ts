import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { isSandboxFlavor, SANDBOX_FLAVORS } from './flavor'
import { startSandbox } from './index'
import type { RunningSandbox, SandboxOptions } from './index'

/*
 * npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--admin-token T] [--viewer-token T]
 *                    [--database-url postgres://...] [--certificates N] [--faults]
 *                    [--flavor default|variant|gateway] [--variant]
 *                    [--wide-sql-limits] [--tls-cert FILE --tls-key FILE]
 * When ready, prints exactly one line on stdout (scripts wait for it):
 *   SANDBOX_READY {"url":"http://127.0.0.1:4010","tokens":{"admin":"...","viewer":"..."}}
 */

const USAGE =
  'usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--admin-token T] ' +
  '[--viewer-token T] [--database-url postgres://...] [--certificates N] [--faults] ' +
  '[--flavor default|variant|gateway] [--variant] ' +
  '[--wide-sql-limits] [--tls-cert FILE --tls-key FILE]'
const DEFAULT_PORT = 4010

class UsageError extends Error {}

function readOptions(argv: string[]): SandboxOptions {
  let values
  try {
    ;({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'admin-token': { type: 'string' },
        'viewer-token': { type: 'string' },
        'database-url': { type: 'string' },
        certificates: { type: 'string' },
        // Test-only fault injection (src/sandbox/faults.ts).
        faults: { type: 'boolean' },
        // The second personality: the other choice wherever the interface leaves one open.
        variant: { type: 'boolean' },
        // Which personality answers: default, variant (= --variant) or gateway (flavor.ts).
        flavor: { type: 'string' },
        // Op 5 up to 100,000 rows (benches, big-result tests); a real deployment allows 2,000.
        'wide-sql-limits': { type: 'boolean' },
        // HTTPS with this PEM certificate (its chain may follow it) and key.
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }))
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    process.exit(0)
  }
  const portText = values.port ?? String(DEFAULT_PORT)
  const port = Number(portText)
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${portText}"`)
  }
  const certificatesText = values.certificates ?? '0'
  const certificateCount = Number(certificatesText)
  if (!/^\d+$/.test(certificatesText) || certificateCount > 100_000) {
    throw new UsageError(
      `--certificates must be an integer from 0 to 100000, got "${certificatesText}"`,
    )
  }
  const flavor = values.flavor ?? (values.variant ? 'variant' : 'default')
  if (!isSandboxFlavor(flavor)) {
    throw new UsageError(`--flavor must be one of ${SANDBOX_FLAVORS.join(', ')}, got "${flavor}"`)
  }
  if (values.variant && flavor !== 'variant') {
    throw new UsageError(`--variant and --flavor ${flavor} contradict each other`)
  }
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) {
    throw new UsageError('--tls-cert and --tls-key go together')
  }
  const tls =
    values['tls-cert'] === undefined || values['tls-key'] === undefined
      ? undefined
      : { cert: readFileSync(values['tls-cert']), key: readFileSync(values['tls-key']) }
  return {
    port,
    certificateCount,
    ...(tls === undefined ? {} : { tls }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values['admin-token'] === undefined ? {} : { adminToken: values['admin-token'] }),
    ...(values['viewer-token'] === undefined ? {} : { viewerToken: values['viewer-token'] }),
    ...(values['database-url'] === undefined ? {} : { databaseUrl: values['database-url'] }),
    ...(values.faults ? { faults: true } : {}),
    flavor,
    ...(values['wide-sql-limits'] ? { sqlLimits: 'wide' as const } : {}),
    // Errors that became a 500 go to stderr, one line each; never the request or its token.
    onUnexpectedError: (error) => {
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      process.stderr.write(`sandbox: internal error: ${text.split('\n')[0]}\n`)
    },
  }
}

function stopOnSignals(sandbox: RunningSandbox): void {
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: error while stopping: ${String(error)}\n`)
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

async function main(): Promise<void> {
  const sandbox = await startSandbox(readOptions(process.argv.slice(2)))
  stopOnSignals(sandbox)
  const ready = { url: sandbox.url, tokens: sandbox.tokens }
  process.stdout.write(`SANDBOX_READY ${JSON.stringify(ready)}\n`)
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  const hint = error instanceof UsageError ? ' (see --help)' : ''
  process.stderr.write(`sandbox: ${message.split('\n')[0]}${hint}\n`)
  process.exit(1)
})
