import { z } from 'zod'

/*
 * Zod compiles fast object parsers with `new Function` when it may, and probes for that while
 * schemas are being built. Our CSP forbids eval, so the probe alone logs a CSP violation. This
 * module is imported first by main.tsx, before any schema exists; jitless parsing is plenty fast
 * for bridge payloads.
 *
 * It lives in lib/ so that the build puts it in the `ui` chunk (electron.vite.config.ts) with
 * zod and the shared contract, whose schemas are built as that chunk evaluates: in the entry
 * chunk it ran after them, and every start logged the violation. The e2e fixture
 * `cspViolations` fails any test whose page reports one.
 */
z.config({ jitless: true })
