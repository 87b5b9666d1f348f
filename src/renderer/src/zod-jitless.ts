import { z } from 'zod'

/*
 * Zod compiles fast object parsers with `new Function` when it may, and probes for that while
 * schemas are being built. Our CSP forbids eval, so the probe alone logs a CSP violation. This
 * module is imported first by main.tsx, before any schema exists; jitless parsing is plenty fast
 * for bridge payloads.
 */
z.config({ jitless: true })
