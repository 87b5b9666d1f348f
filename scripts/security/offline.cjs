// Loaded with `node --require` before electronegativity: its i18n module fetches translations
// from GitHub with `got` at every start (1 s timeout, then the bundled en-US). Here `got` fails at
// once without touching the network, so the scan is offline, fast and the same on every run.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload patches CommonJS loading
const Module = require('node:module')
const load = Module._load
Module._load = function loadOffline(request, ...rest) {
  if (request === 'got') {
    return () => Promise.reject(new Error('electronegativity runs offline in Infradesk'))
  }
  return load.call(this, request, ...rest)
}
