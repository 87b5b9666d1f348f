import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import { resolve } from 'node:path'
import type { Plugin } from 'vite'

/*
 * main: ESM (package.json is "type": "module"); runtime dependencies (better-sqlite3, keytar,
 * pglite, ...) stay external and are loaded from node_modules (build.externalizeDeps, the
 * electron-vite 5+ replacement for externalizeDepsPlugin). zod is the exception: bundled, it is
 * one chunk instead of 95 ES modules for Node's loader to resolve and link at every start
 * (importing the core took 160-240 ms with it external, 80-130 ms bundled).
 * preload: a sandboxed preload cannot require anything but electron, so it is bundled whole
 * (externalizeDeps off) as one CommonJS file, out/preload/index.cjs.
 * renderer: React, rooted at src/renderer.
 */

/**
 * The dev server's page needs an inline script (React Refresh's preamble) and a websocket,
 * which index.html's strict CSP meta tag forbids. In `dev` only, the meta tag is dropped: the
 * window still gets a CSP, as a response header (src/main/shell/window.ts), relaxed just
 * enough for the dev server. Built pages keep the meta tag untouched.
 */
function devServerCsp(): Plugin {
  return {
    name: 'infradesk:dev-server-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/i, '')
    },
  }
}

export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: ['zod'] },
      rolldownOptions: {
        // web: the same main-process core for `npm run web` (plain Node, no Electron), so web
        // mode starts from one built file instead of compiling TypeScript at every launch.
        // sandbox-host: the embedded sandbox's own process (src/main/sandbox-process), which the
        // core starts from out/main/sandbox-host.js.
        // list-worker, sql-worker: worker threads that parse and store big lists and parse SQL
        // results off main's event loop (src/main/workers), started from out/main/<name>.js.
        // download-worker: volume archives downloaded, hashed and written off main's loop.
        input: {
          index: resolve('src/main/index.ts'),
          web: resolve('src/main/web/main.ts'),
          'sandbox-host': resolve('src/main/sandbox-process/host.ts'),
          'list-worker': resolve('src/main/workers/list-worker.ts'),
          'sql-worker': resolve('src/main/workers/sql-worker.ts'),
          'download-worker': resolve('src/main/workers/download-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [react(), devServerCsp()],
    build: {
      // electron-vite leaves the renderer unminified by default; web mode serves it over HTTP.
      minify: true,
      rolldownOptions: {
        input: { index: resolve('src/renderer/index.html') },
        // The shared UI and helpers (src/renderer/src/ui, lib) and what they import go in one
        // chunk instead of a dozen small ones shared between the entry and the screens: on the
        // 2-core machine Chromium spends ~10 ms on each request it sends, one after another,
        // and the Certificates screen asked for ten files after the entry's eight. Now the
        // entry is three files and a screen one or two; ~50 kB more is evaluated at start
        // (TanStack Virtual, the ui/lib modules only screens use). A/B, 6 launches each,
        // launch to painted: Overview 953 vs 983 ms, 10,000 certificates 1240 vs 1277 ms.
        // The `start` chunk (first in the list, so it wins over `ui`): page-start.ts with what it
        // imports (the transport, the routes' names; no zod), which sends the app's first calls
        // as soon as the page's script begins to evaluate, before zod, React, the contract and
        // the screens (src/renderer/src/first-calls.ts). main.tsx imports lib/zod-jitless.ts
        // next: it is the first module of `ui` to run, so zod's eval probe is off before any
        // schema is built (the e2e fixture cspViolations fails a page that logs the probe).
        output: {
          codeSplitting: {
            groups: [
              {
                name: 'start',
                test: /src[\\/]renderer[\\/]src[\\/]page-start\.ts$/,
              },
              { name: 'ui', test: /src[\\/]renderer[\\/]src[\\/](ui|lib)[\\/]/ },
            ],
          },
        },
      },
    },
  },
})
