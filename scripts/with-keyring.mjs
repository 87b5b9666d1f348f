// Runs a command with a Secret Service available, as the tests need a real OS keychain.
// When a D-Bus session is already running (a desktop, or `dbus-run-session`), it is used as is.
// Otherwise this starts a private D-Bus session and an unlocked throwaway gnome-keyring with
// its own temporary XDG_DATA_HOME and XDG_RUNTIME_DIR, runs the command, and stops both by pid.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const [command, ...args] = process.argv.slice(2)
if (!command) {
  console.error('usage: node scripts/with-keyring.mjs <command> [args...]')
  process.exit(2)
}

const env = { ...process.env }
const pids = []
let tempRoot = null

function have(binary) {
  return spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0
}

if (!env.DBUS_SESSION_BUS_ADDRESS && have('dbus-daemon') && have('gnome-keyring-daemon')) {
  tempRoot = mkdtempSync(join(tmpdir(), 'infradesk-keyring-'))
  env.XDG_DATA_HOME = join(tempRoot, 'data')
  env.XDG_RUNTIME_DIR = join(tempRoot, 'run')
  execFileSync('mkdir', ['-p', '-m', '700', env.XDG_DATA_HOME, env.XDG_RUNTIME_DIR])
  const [address, pid] = execFileSync(
    'dbus-daemon',
    ['--session', '--fork', '--print-address=1', '--print-pid=1'],
    { env, encoding: 'utf8' },
  )
    .trim()
    .split('\n')
  env.DBUS_SESSION_BUS_ADDRESS = address.trim()
  pids.push(Number(pid))
  // --unlock reads the password on stdin and creates the login keyring unlocked with it.
  const keyringOut = execFileSync(
    'gnome-keyring-daemon',
    ['--unlock', '--components=secrets', '--daemonize'],
    { env, input: 'infradesk-test', encoding: 'utf8' },
  )
  for (const line of keyringOut.split('\n')) {
    const [key, value] = line.split('=')
    if (key === 'GNOME_KEYRING_CONTROL') env.GNOME_KEYRING_CONTROL = value
    if (key === 'GNOME_KEYRING_PID') pids.push(Number(value))
  }
  console.log(`[with-keyring] private D-Bus session and throwaway keyring started`)
}

function cleanup() {
  for (const pid of pids.reverse()) {
    try {
      process.kill(pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  if (tempRoot) rmSync(tempRoot, { recursive: true, force: true })
}

const child = spawn(command, args, { env, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal))
}
child.on('exit', (code, signal) => {
  cleanup()
  process.exit(code ?? (signal ? 1 : 0))
})
