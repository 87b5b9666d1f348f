import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/*
 * Where a worker thread's module is, in the three places the desk runs: from source (tsx,
 * vitest, `npm run web` in dev) it is the `.ts` file beside this one, run under tsx's loader;
 * in the build (web mode's out/main/web.js, Electron's out/main/index.js) it is its own entry,
 * `out/main/<name>.js` (electron.vite.config.ts), found beside or one folder above the chunk
 * this code was bundled into. The sandbox's process is found the same way
 * (src/main/sandbox-process/launch.ts).
 */

export interface WorkerEntry {
  url: URL
  /** Node options the worker needs (tsx's loader when the entry is TypeScript). */
  execArgv: string[]
}

export function workerEntry(name: string, moduleUrl: string = import.meta.url): WorkerEntry {
  const here = fileURLToPath(moduleUrl)
  const folder = path.dirname(here)
  if (here.endsWith('.ts')) {
    const tsx = createRequire(moduleUrl).resolve('tsx')
    return {
      url: pathToFileURL(path.join(folder, `${name}.ts`)),
      execArgv: ['--import', pathToFileURL(tsx).href],
    }
  }
  for (const candidate of [folder, path.dirname(folder)]) {
    const modulePath = path.join(candidate, `${name}.js`)
    if (existsSync(modulePath)) return { url: pathToFileURL(modulePath), execArgv: [] }
  }
  throw new Error(`The worker's program (${name}.js) is missing beside ${folder}`)
}
