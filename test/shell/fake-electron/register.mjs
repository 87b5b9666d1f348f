// `node --import ./register.mjs`: `electron` resolves to the recording stand-in beside this file,
// for the built main process and everything it imports (Node's own loader, in this process only).
import { registerHooks } from 'node:module'

const stub = new URL('./electron.mjs', import.meta.url).href

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: stub, shortCircuit: true, format: 'module' }
    return nextResolve(specifier, context)
  },
})
