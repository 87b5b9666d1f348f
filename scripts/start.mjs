// `npm start`: the desktop app where it can run (an Electron binary and a display), otherwise
// web mode against the embedded sandbox, saying why. Arguments after `--` go to web mode.
import { requireSupportedNode } from './check-node.mjs'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// Before anything else: an unsupported Node gets a clear message, not a crash later on.
requireSupportedNode('start')

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const electronModule = path.join(root, 'node_modules', 'electron')

/** The binary electron's own index.js would run, without require('electron'), which downloads it when missing. */
function electronBinary() {
  const pathFile = path.join(electronModule, 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = path.join(electronModule, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

function displayAvailable() {
  if (process.platform === 'darwin' || process.platform === 'win32') return true
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
}

function run(file, args) {
  const child = spawn(file, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

const binary = electronBinary()
const why = !binary
  ? 'the Electron binary is not installed (node_modules/electron/dist)'
  : !displayAvailable()
    ? 'no display is available (DISPLAY and WAYLAND_DISPLAY are unset)'
    : null

if (!why) {
  const electronVite = path.join(root, 'node_modules', '.bin', 'electron-vite')
  // preview builds first, then runs the built app in Electron.
  run(electronVite, ['preview'])
} else {
  console.error(`[start] Opening web mode instead of the desktop app: ${why}.`)
  const args = process.argv.slice(2)
  run(process.execPath, [
    path.join(root, 'scripts', 'web.mjs'),
    ...(args.includes('--sandbox') ? args : ['--sandbox', ...args]),
  ])
}
