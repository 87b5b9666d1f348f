import { inspect, isDeepStrictEqual } from 'node:util'

/*
 * The bridge has two transports, and they serialise differently: Electron's IPC
 * with a structured clone, web mode with JSON (main now sends events over IPC as JSON text too,
 * shell/ipc.ts, but a value that reaches main's transports must still mean one thing). A Date, a
 * Map, a BigInt, NaN, a Buffer or an undefined inside an array arrives as one thing in the
 * desktop app and as another (or not at all) in web mode and the e2e tests; a function or a class
 * with a private field cannot be cloned at all, and an event carrying one was dropped without a
 * word. test/support/desk.ts passes every answer and event of the suite through this.
 *
 * An object property whose value is undefined is the one difference allowed: JSON leaves it out,
 * a clone keeps it, and the contract's schemas read both as "not given".
 */

/** Why `value` would not arrive the same over both transports; null when it would. */
export function transportMismatch(value: unknown): string | null {
  let cloned: unknown
  try {
    cloned = structuredClone(value)
  } catch (error) {
    return `cannot be sent over IPC (structured clone): ${messageOf(error)}`
  }
  let json: unknown
  try {
    const text = JSON.stringify(value)
    json = text === undefined ? undefined : JSON.parse(text)
  } catch (error) {
    return `cannot be sent as JSON: ${messageOf(error)}`
  }
  const clonedAsSent = withoutUndefinedProperties(cloned)
  if (isDeepStrictEqual(clonedAsSent, json)) return null
  return `arrives differently: as a structured clone ${preview(clonedAsSent)}, as JSON ${preview(json)}`
}

/** Throws when `value` (what `where` carried) would not arrive the same over both transports. */
export function assertSameOverBothTransports(where: string, value: unknown): void {
  const mismatch = transportMismatch(value)
  if (mismatch !== null) throw new Error(`${where} ${mismatch}`)
}

function withoutUndefinedProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefinedProperties)
  if (!isPlainObject(value)) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .map(([key, entry]) => [key, withoutUndefinedProperties(entry)]),
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function preview(value: unknown): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity })
  return text.length > 300 ? `${text.slice(0, 300)}…` : text
}
