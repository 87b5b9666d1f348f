/*
 * The sandbox's personalities (docs/SERVICE.md). Where the interface leaves a point open, each
 * makes its own choice, and the app must read all three:
 * - `default`: our choice;
 * - `variant`: the other common choice (every 4xx a 400, 200 for every success, ...);
 * - `gateway`: what the public source of a real deployment does (wiolett-industries/gateway):
 *   API tokens `gw_…`, browser-only endpoints, `HTTP_ERROR` for 401/403, per-resource codes,
 *   dotted validation paths, pagination, raw export files, `results[]` for SQL, rate limits.
 */
export const SANDBOX_FLAVORS = ['default', 'variant', 'gateway'] as const
export type SandboxFlavor = (typeof SANDBOX_FLAVORS)[number]

export function isSandboxFlavor(value: unknown): value is SandboxFlavor {
  return typeof value === 'string' && (SANDBOX_FLAVORS as readonly string[]).includes(value)
}
