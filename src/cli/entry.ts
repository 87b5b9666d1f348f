import { runCli } from './main'

/* The program `bin/infradesk.mjs` starts: run, then end with the command's exit code. */

// A reader that stopped early (`| head`) is not an error of ours: end quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

const code = await runCli(process.argv.slice(2))
// stdout written out first (a pipe may be asynchronous), then ended: a handle left open by a
// library (a keychain connection, a connection pool) must not keep the process alive.
process.stdout.write('', () => process.exit(code))
