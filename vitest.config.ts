import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Sandboxes, PGlite (its first query starts the engine: tens of seconds on a busy 2-core
    // machine) and real tools (openssl, keytool) take longer than vitest's default.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    // Two cores: keep parallelism modest so sandboxes and PGlite do not starve each other.
    maxWorkers: 2,
  },
})
