// Loaded with `node --require` before electronegativity. Version 1.10 writes its CSV with two
// fs.writeFile calls it does not chain: the header (flag 'w', truncating) and then the findings
// (flag 'a'). When the findings' write opens the file first, the header's truncates them away or
// overwrites their first bytes: about 1 scan in 10 on a busy machine reported nothing, or wrote
// a CSV that parsed into nonsense, and the gate passed. Here the writes to one path run one after
// the other, in the order they were called.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload patches fs
const fs = require('node:fs')
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const path = require('node:path')

const writeFile = fs.writeFile
/** Per resolved path, the write last queued (settled once it has completed). */
const queued = new Map()

fs.writeFile = function orderedWriteFile(file, data, options, callback) {
  if (typeof options === 'function') {
    callback = options
    options = {}
  }
  if (typeof file !== 'string') return writeFile.call(fs, file, data, options, callback)
  const key = path.resolve(file)
  const previous = queued.get(key) ?? Promise.resolve()
  const done = previous.then(
    () =>
      new Promise((resolve) => {
        writeFile.call(fs, file, data, options ?? {}, (error) => {
          resolve()
          if (callback) callback(error)
        })
      }),
  )
  queued.set(key, done)
}
