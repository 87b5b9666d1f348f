// Loaded with `node --require` before electronegativity: it requires `commander` without
// declaring it and uses the API of commander 5 and older (options read off the program object).
// It used to find a hoisted commander 5 by chance; the project's own CLI needs commander 15, so
// electronegativity's requests are sent to the pinned `commander-v5` (an npm alias) instead.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload patches CommonJS loading
const Module = require('node:module')
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const path = require('node:path')
const load = Module._load
const scanner = `${path.sep}@doyensec${path.sep}electronegativity${path.sep}`
Module._load = function loadCommanderV5(request, parent, ...rest) {
  const fromScanner = parent !== undefined && parent !== null && parent.filename?.includes(scanner)
  return load.call(
    this,
    fromScanner && request === 'commander' ? 'commander-v5' : request,
    parent,
    ...rest,
  )
}
