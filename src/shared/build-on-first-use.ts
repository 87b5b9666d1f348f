/*
 * Records of zod schemas that are built when an entry is first read, not when their module is
 * evaluated. The bridge contract (~70 channels) and the service contract (22 operations) are
 * imported by the page's entry and by main's core, and building every schema up front was most
 * of the top-level work of both (bench/README.md, "startup"): a session reads a part of them.
 */

type Builders = Record<string, () => unknown>
export type Built<B extends Builders> = { readonly [K in keyof B]: ReturnType<B[K]> }

/**
 * A record whose entries are made by their builder on first read, then kept: every later read
 * gets the same value (main's validation and the renderer's compiled checks are keyed by the
 * schema object). The keys are all there from the start, so `Object.keys` builds nothing.
 */
export function buildOnFirstUse<B extends Builders>(builders: B): Built<B> {
  // Filled below with one getter per builder.
  const record = {} as Built<B>
  for (const [key, build] of Object.entries(builders)) {
    Object.defineProperty(record, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = build()
        Object.defineProperty(record, key, { value, enumerable: true, writable: false })
        return value
      },
    })
  }
  return record
}
