import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Sandboxes, PGlite and real tools (openssl, keytool) take longer than vitest's default.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: keep parallelism modest so sandboxes and PGlite do not starve each other.
    maxWorkers: 2,
  },
})
