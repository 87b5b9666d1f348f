import { defineConfig } from '@playwright/test'
import type { Options } from './test/e2e/support/fixtures'

/*
 * End-to-end: Debian's Chromium (never a downloaded browser) drives web mode, which serves the
 * built renderer (out/renderer, built by `npm run build` first) and talks to real sandboxes.
 * Run under scripts/with-keyring.mjs so the app's child processes reach a real keychain.
 */
export default defineConfig<Options>({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: {
    timeout: 20_000,
    // Layout pictures (layout-screenshots.spec.ts): still, no caret, and no more tolerance
    // than anti-aliasing needs.
    toHaveScreenshot: { animations: 'disabled', caret: 'hide', maxDiffPixelRatio: 0.002 },
  },
  // One baseline per picture, beside its spec: the pictures are taken on the project's one
  // platform and browser (Debian's Chromium), so neither is in the name.
  snapshotPathTemplate: '{testDir}/{testFilePath}-snapshots/{arg}{ext}',
  workers: 1,
  retries: 0,
  fullyParallel: false,
  // run-tests.mjs asks for a JSON summary beside the list via PLAYWRIGHT_JSON_OUTPUT_NAME.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    // The gateway flavour's own specs run in the `gateway` project only.
    { name: 'service', testIgnore: ['gateway-*.spec.ts'] },
    {
      // The main screens again against the sandbox's second personality (`--variant`): the other
      // choice at every point the interface leaves open (docs/SERVICE.md).
      name: 'variant',
      use: { sandboxFlavor: 'variant' },
      testMatch: [
        'first-run.spec.ts',
        'certificates-export.spec.ts',
        'certificates-moves.spec.ts',
        'sql-console.spec.ts',
        'volumes-export.spec.ts',
        'migrations-resolve.spec.ts',
        'ops-status-page.spec.ts',
      ],
    },
    {
      // The main specs against the sandbox's `gateway` flavour: the rules and shapes of a real
      // deployment of the service (API tokens, browser-only endpoints, pagination, raw export
      // files, SQL results[], rate limits, 200-with-failure; docs/SERVICE.md).
      name: 'gateway',
      use: { sandboxFlavor: 'gateway' },
      testMatch: ['gateway-*.spec.ts'],
    },
  ],
})
