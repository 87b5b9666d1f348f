import { CliError } from './exit-codes'

/*
 * `profiles add` reads the token from standard input, never from the command line (where it
 * would sit in the shell's history and in every process listing). On a terminal it is typed
 * without echo; from a pipe (`secret-tool lookup … | infradesk profiles add …`) it is read whole.
 */

const MAX_TOKEN_BYTES = 8192

export async function readTokenFromStdin(
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<string> {
  const token = stdin.isTTY ? await readHidden(stdin) : await readAll(stdin)
  const trimmed = token.trim()
  if (trimmed === '') throw CliError.usage('no token on standard input')
  return trimmed
}

async function readAll(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stdin as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_TOKEN_BYTES) throw CliError.usage('the token on standard input is too long')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** One line typed at the terminal, not echoed; Ctrl-C aborts. */
function readHidden(stdin: NodeJS.ReadStream): Promise<string> {
  process.stderr.write('Access token (not shown): ')
  return new Promise((resolve, reject) => {
    let typed = ''
    const finish = (error: CliError | null) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.off('data', onData)
      process.stderr.write('\n')
      if (error === null) resolve(typed)
      else reject(error)
    }
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish(null)
        if (char === '\u0003') return finish(CliError.usage('cancelled'))
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1)
        else typed += char
      }
    }
    stdin.setRawMode(true)
    stdin.resume()
    stdin.on('data', onData)
  })
}
