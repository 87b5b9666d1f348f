// `npm run doctor`: what this machine has of what Infradesk needs, each with what works, what is
// missing and the exact command that fixes it. Runs on any Node from 14 up (so it can say that
// Node itself is too old) and changes nothing: every probe is read-only, except the keychain
// probe, which writes and deletes one throwaway item (a locked keyring still answers reads).
// Exit 0 when everything needed to run and test the app is there; 1 otherwise.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeFixes, nodeProblem, requiredNode } from './check-node.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const linux = process.platform === 'linux'
const mac = process.platform === 'darwin'

/** `sudo apt-get install ...` on Debian/Ubuntu, `brew install ...` on macOS. */
function install(debianPackages, brewPackages = debianPackages) {
  if (mac) return `brew install ${brewPackages}`
  if (linux) return `sudo apt-get install -y ${debianPackages}`
  return `install ${brewPackages}`
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 20_000, ...options })
  return {
    ok: result.status === 0,
    missing: result.error !== undefined && result.error.code === 'ENOENT',
    output:
      `${result.stdout || ''}${result.stderr || ''}`.trim() ||
      (result.signal ? `the process was killed by ${result.signal}` : ''),
  }
}

function firstLine(text) {
  return (text.split('\n').find((line) => line.trim() !== '') || '').trim()
}

/* Each check answers { status: 'ok' | 'missing' | 'warn', what, fix? }. 'warn' is something the
   app can do without (it says what is lost); 'missing' fails the doctor. */

function checkNode() {
  const problem = nodeProblem()
  if (problem === null) {
    return { status: 'ok', what: `Node ${process.version} (needs ${requiredNode().join('.')}+)` }
  }
  return {
    status: 'missing',
    what: `Node ${process.version} is too old (needs ${requiredNode().join('.')}+); every other check below may fail because of it`,
    fix: nodeFixes(requiredNode()),
  }
}

function checkDependencies() {
  if (!existsSync(path.join(root, 'node_modules', '.bin'))) {
    return { status: 'missing', what: 'node_modules is not installed', fix: ['npm ci'] }
  }
  // The native modules must be built for this Node (a Node switch leaves an ABI mismatch).
  const probe = run(
    process.execPath,
    [
      '-e',
      "const D = require('better-sqlite3'); new D(':memory:').prepare('select 1').get(); require('keytar')",
    ],
    { cwd: root },
  )
  if (!probe.ok && nodeProblem() !== null) {
    return {
      status: 'missing',
      what: `the native modules do not load on this Node (${firstLine(probe.output)})`,
      fix: ['switch to a supported Node first (see above); do not rebuild them for this one'],
    }
  }
  if (!probe.ok) {
    const mismatch = /NODE_MODULE_VERSION|was compiled against a different Node/.test(probe.output)
    return {
      status: 'missing',
      what: mismatch
        ? 'better-sqlite3/keytar were built for another Node version'
        : `the native modules do not load: ${firstLine(probe.output)}`,
      fix: ['npm rebuild better-sqlite3 keytar'],
    }
  }
  return { status: 'ok', what: 'dependencies installed; better-sqlite3 and keytar load' }
}

function checkKeychain() {
  if (linux && !process.env.DBUS_SESSION_BUS_ADDRESS) {
    const haveKeyring = run('sh', [
      '-c',
      'command -v gnome-keyring-daemon && command -v dbus-daemon',
    ]).ok
    return {
      status: 'warn',
      what:
        'no D-Bus session, so no Secret Service: tokens can be kept for the session only ' +
        '(the tests bring their own keyring with scripts/with-keyring.mjs)',
      fix: haveKeyring
        ? [
            'on a desktop: log in to a graphical session (GNOME Keyring or KWallet starts with it)',
            'in a terminal: dbus-run-session -- bash, then: echo -n "pick-a-password" | gnome-keyring-daemon --unlock --components=secrets',
          ]
        : [install('gnome-keyring dbus libsecret-1-0 libsecret-tools')],
    }
  }
  const probe = run(
    process.execPath,
    [
      '-e',
      `const k = require('keytar'); const s = 'Infradesk-doctor', a = 'probe-' + process.pid;
       k.setPassword(s, a, 'x').then(() => k.getPassword(s, a)).then((v) => {
         if (v !== 'x') throw new Error('the item read back differs');
         return k.deletePassword(s, a) }).then(() => process.exit(0),
         (e) => { console.error(e && e.message); process.exit(1) })`,
    ],
    { cwd: root },
  )
  if (probe.ok)
    return { status: 'ok', what: 'OS keychain: stored, read back and deleted a probe item' }
  const locked = /locked|prompt|dismissed|cancel/i.test(probe.output)
  return {
    status: 'warn',
    what: locked
      ? `the keychain is locked: ${firstLine(probe.output)}`
      : `the keychain cannot store tokens: ${firstLine(probe.output)}`,
    fix: locked
      ? [
          'unlock the "login" keyring (Seahorse, "Passwords and Keys"), or: echo -n "your-password" | gnome-keyring-daemon --unlock --replace',
        ]
      : linux
        ? [
            install('gnome-keyring libsecret-1-0'),
            'then log out and in again, so the keyring starts with the session',
          ]
        : ['open Keychain Access and unlock the login keychain'],
  }
}

function checkElectron() {
  const pathFile = path.join(root, 'node_modules', 'electron', 'path.txt')
  const binary = existsSync(pathFile)
    ? path.join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim())
    : null
  if (!binary || !existsSync(binary)) {
    return {
      status: 'warn',
      what: 'the Electron binary is not installed: `npm start` opens web mode in the browser instead',
      fix: ['node node_modules/electron/install.js      # downloads the binary for this platform'],
    }
  }
  if (linux && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return {
      status: 'warn',
      what: `Electron is installed (${path.relative(root, binary)}) but there is no display: \`npm start\` opens web mode`,
      fix: ['run it from a desktop session, or use web mode: npm run web -- --sandbox'],
    }
  }
  return { status: 'ok', what: `Electron binary: ${path.relative(root, binary)}` }
}

function checkChromium() {
  const executable = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
  const probe = run(executable, ['--version'])
  if (probe.ok)
    return { status: 'ok', what: `${firstLine(probe.output)} (${executable}), for the e2e tests` }
  return {
    status: 'missing',
    what: `no Chromium at ${executable}: the end-to-end tests cannot run`,
    fix: [
      install('chromium', '--cask chromium'),
      'or point CHROMIUM_PATH at a Chromium or Chrome binary',
    ],
  }
}

function checkOpenssl() {
  const probe = run('openssl', ['version'])
  if (probe.ok)
    return { status: 'ok', what: `${firstLine(probe.output)}, checks exported certificates` }
  return {
    status: 'missing',
    what: 'openssl is not installed: the export tests cannot check the files',
    fix: [install('openssl')],
  }
}

function checkKeytool() {
  const probe = run('keytool', ['-help'])
  if (probe.ok || (!probe.missing && /keytool/i.test(probe.output))) {
    const java = run('java', ['-version'])
    return {
      status: 'ok',
      what: `keytool (${firstLine(java.output) || 'Java'}), checks JKS exports`,
    }
  }
  return {
    status: 'missing',
    what: 'keytool (Java) is not installed: the JKS export tests cannot check the files',
    fix: [install('default-jre-headless', 'openjdk')],
  }
}

const CHECKS = [
  ['Node.js', checkNode],
  ['npm dependencies', checkDependencies],
  ['keychain', checkKeychain],
  ['Electron', checkElectron],
  ['Chromium', checkChromium],
  ['openssl', checkOpenssl],
  ['keytool', checkKeytool],
]

const MARKS = { ok: 'ok     ', warn: 'limited', missing: 'MISSING' }
let failed = 0
console.log(`Infradesk doctor (${process.platform}-${process.arch}, ${root})\n`)
for (const [name, check] of CHECKS) {
  let result
  try {
    result = check()
  } catch (error) {
    result = { status: 'missing', what: `the check itself failed: ${error && error.message}` }
  }
  if (result.status === 'missing') failed++
  console.log(`${MARKS[result.status]}  ${name.padEnd(17)} ${result.what}`)
  for (const fix of result.fix || []) console.log(`${' '.repeat(28)}fix: ${fix}`)
}
console.log(
  failed === 0
    ? '\nEverything needed to run and test Infradesk is here.'
    : `\n${failed} thing(s) missing; run the fix commands above, then \`npm run doctor\` again.`,
)
process.exit(failed === 0 ? 0 : 1)
