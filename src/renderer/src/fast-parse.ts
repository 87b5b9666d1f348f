import type { z } from 'zod'

/*
 * The same zod schemas, checked faster on big answers. The renderer's CSP forbids eval, so zod
 * runs jitless: its generic parser walks the schema for every value, and on a cold page that
 * took ~60-100 ms for the 10,000 rows of `certificates.cached`, the largest single cost between
 * the answer and the painted list. Here a schema is turned once into plain closures, one per
 * node, for the few node kinds big answers are made of (objects that strip unknown keys,
 * arrays, strings with length bounds, numbers, booleans, nullables). Every other node (an
 * optional field, a refinement, a transform, a format, a union...) is checked by zod itself.
 *
 * The closures only say "valid, and here is zod's output" or "not valid". When they say not
 * valid, zod parses the whole value and its answer is the one returned, issues and all: zod
 * stays the definition of every schema and the author of every error.
 */

const INVALID: unique symbol = Symbol('invalid')
/** Zod's output for a valid input, or INVALID. */
type Step = (input: unknown) => unknown

/** What this module reads of a zod schema's definition (zod's own `_zod.def`, typed loosely). */
interface Def {
  type: string
  coerce?: boolean
  format?: string
  checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[]
  innerType?: z.ZodType
  element?: z.ZodType
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
}

function defOf(schema: z.ZodType): Def {
  return schema._zod.def as unknown as Def
}

const compiled = new WeakMap<z.ZodType, Step>()

/** `schema.safeParse(value)`, through the compiled closures when they accept the value. */
export function fastSafeParse<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.ZodSafeParseResult<z.output<Schema>> {
  let step = compiled.get(schema)
  if (step === undefined) {
    step = compile(schema)
    compiled.set(schema, step)
  }
  const output = step(value)
  if (output === INVALID) return schema.safeParse(value)
  return { success: true, data: output as z.output<Schema> }
}

function compile(schema: z.ZodType): Step {
  return compileKnown(schema) ?? byZod(schema)
}

/** Zod itself, for a node the closures do not cover. */
function byZod(schema: z.ZodType): Step {
  return (input) => {
    const result = schema.safeParse(input)
    return result.success ? result.data : INVALID
  }
}

function compileKnown(schema: z.ZodType): Step | null {
  const def = defOf(schema)
  if (def.coerce) return null
  const checks = def.checks ?? []
  switch (def.type) {
    case 'string': {
      if (def.format !== undefined) return null
      let min = 0
      let max = Number.POSITIVE_INFINITY
      for (const check of checks) {
        const { check: kind, minimum, maximum } = check._zod.def
        if (kind === 'min_length' && minimum !== undefined) min = Math.max(min, minimum)
        else if (kind === 'max_length' && maximum !== undefined) max = Math.min(max, maximum)
        else return null
      }
      return (input) =>
        typeof input === 'string' && input.length >= min && input.length <= max ? input : INVALID
    }
    case 'boolean':
      if (checks.length > 0) return null
      return (input) => (typeof input === 'boolean' ? input : INVALID)
    case 'number':
      // A format (z.int()'s safeint, float32...) is a check of its own: zod's.
      if (checks.length > 0 || def.format !== undefined) return null
      // As zod: NaN and the infinities are not numbers.
      return (input) => (typeof input === 'number' && Number.isFinite(input) ? input : INVALID)
    case 'nullable': {
      if (checks.length > 0 || def.innerType === undefined) return null
      const inner = compile(def.innerType)
      return (input) => (input === null ? null : inner(input))
    }
    case 'array': {
      if (checks.length > 0 || def.element === undefined) return null
      const element = compile(def.element)
      return (input) => {
        if (!Array.isArray(input)) return INVALID
        const output = new Array<unknown>(input.length)
        for (let index = 0; index < input.length; index += 1) {
          const item = element(input[index])
          if (item === INVALID) return INVALID
          output[index] = item
        }
        return output
      }
    }
    case 'object':
      return compileObject(def, checks.length)
    case 'lazy':
      // A `z.lazy` (the contract's module constants are built on first use): the schema it
      // stands for, as zod built and keeps it, compiled as if it were here.
      return compileKnown(lazyInner(schema))
    default:
      return null
  }
}

/** The schema a `z.lazy` stands for: zod builds it once, on first read, and keeps it. */
function lazyInner(schema: z.ZodType): z.ZodType {
  return (schema._zod as unknown as { innerType: z.ZodType }).innerType
}

/**
 * An object that strips unknown keys (zod's default object), whose fields are required or plainly
 * optional (`.optional()`: absent is left out, as zod does). An optional key present with
 * `undefined`, and any other optional-ish field (a default, a catch), are left to zod.
 */
function compileObject(def: Def, checkCount: number): Step | null {
  if (checkCount > 0 || def.catchall !== undefined || def.shape === undefined) return null
  const shape = def.shape
  if (Object.getOwnPropertySymbols(shape).length > 0) return null
  // zod skips a `__proto__` key too.
  const keys = Object.keys(shape).filter((key) => key !== '__proto__')
  const fields = keys.map((key) => shape[key] as z.ZodType)
  const wrapped = fields.map(plainOptionalInner)
  const optional = wrapped.map((inner) => inner !== undefined)
  // A defaulted (or otherwise optional-ish) field's absence has rules of its own: zod checks it.
  if (
    fields.some(
      (field, index) =>
        !optional[index] && (field._zod.optin !== undefined || field._zod.optout !== undefined),
    )
  ) {
    return null
  }
  // An optional field's step checks what it wraps; its absence is handled below.
  const steps = fields.map((field, index) => compile(wrapped[index] ?? field))
  return (input) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return INVALID
    const record = input as Record<string, unknown>
    const output: Record<string, unknown> = {}
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string
      if (!(key in record)) {
        // An absent optional key stays absent; a required one must be present (zod reports a
        // missing one even where undefined is valid).
        if (optional[index]) continue
        return INVALID
      }
      const given = record[key]
      if (given === undefined && optional[index]) return INVALID
      const value = (steps[index] as Step)(given)
      if (value === INVALID) return INVALID
      output[key] = value
    }
    return output
  }
}

/** What a field wraps when it is `.optional()` and nothing else (absent, or that); else undefined. */
function plainOptionalInner(field: z.ZodType): z.ZodType | undefined {
  const def = defOf(field)
  const { optin, optout } = field._zod
  const plain =
    def.type === 'optional' &&
    optin === 'optional' &&
    optout === 'optional' &&
    (def.checks ?? []).length === 0
  return plain ? def.innerType : undefined
}
