import { useCallback, useMemo, useState, type ChangeEvent } from 'react'
import { z } from 'zod'
import { toValidationIssues, validationIssuesOf } from '../../../shared/api'
import type { BridgeError } from '../../../shared/bridge'
import { fieldErrorsFrom } from './errors'

/*
 * Forms checked with the contract's own schema as the user types, and a service 400 placed on
 * the fields its `details[].path` names. The one form system of the app (the operation screens'
 * writes go through ops-common/useWrite, which takes this form):
 *
 *   const form = useSchemaForm(operations.cancelCopyJob.params, { id: routeParams.id ?? '' })
 *
 *   <Field label="Copy job id" error={form.errorOf('id')}>
 *     {(control) => <input className="input" {...control} {...form.text('id')} />}
 *   </Field>
 *   <Button disabled={!form.valid} onClick={send}>Cancel job</Button>
 *
 *   async function send() {
 *     const input = form.check()          // null (and every error shown) when invalid
 *     if (!input) return
 *     try { await bridge.call(...) }
 *     catch (error) { if (!form.showError(asBridgeError(error))) setBanner(...) }
 *   }
 *
 * - The fields are the schema's top-level keys; `values` is the schema's input type.
 * - A field's own error shows once the user changed it or left it, or after `check()`: nobody
 *   wants "Required" in red before they started typing.
 * - A service error on a field stays until the user edits that field.
 */

type FieldValues = Record<string, unknown>

export interface SchemaForm<S extends z.ZodType<unknown, FieldValues>> {
  values: z.input<S>
  /** Sets one field (e.g. from a checkbox, a select, a number input). */
  set<K extends keyof z.input<S> & string>(name: K, value: z.input<S>[K]): void
  /** Props binding a text input (or textarea/select) to a string field. */
  text<K extends StringKeys<z.input<S>>>(name: K): TextBinding
  /** Props for a field component that hands back the value itself (e.g. IdField). */
  field<K extends StringKeys<z.input<S>>>(name: K): ValueBinding
  /** The message to show under a field, if any. */
  errorOf(name: keyof z.input<S> & string): string | undefined
  /** Every field valid per the schema. */
  valid: boolean
  /** The schema's output for the current values, or null when a field is invalid. */
  data: z.output<S> | null
  /** Shows every field's error and returns the output, or null when invalid. */
  check(): z.output<S> | null
  /**
   * Places a VALIDATION_ERROR's `details[].path` on the fields they name. Returns true when
   * the error is fully explained by the fields (nothing else needs showing).
   */
  showError(error: BridgeError): boolean
  /**
   * Places the issues of a 400, or of a 422 that names fields, on the fields they name, and
   * returns the messages that name none (they are `otherIssues` too).
   */
  placeServerErrors(error: BridgeError): string[]
  /** Messages of the last service 400 that name no field of this form. */
  otherIssues: string[]
  /** Back to `values` (default: the initial values), errors hidden. */
  reset(values?: z.input<S>): void
}

export interface TextBinding {
  name: string
  value: string
  onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>): void
  onBlur(): void
}

export interface ValueBinding {
  value: string
  onChange(value: string): void
  error: string | undefined
}

type StringKeys<V> = {
  [K in keyof V & string]: V[K] extends string | undefined ? K : never
}[keyof V & string]

export function useSchemaForm<S extends z.ZodType<unknown, FieldValues>>(
  schema: S,
  initial: z.input<S>,
): SchemaForm<S> {
  const [values, setValues] = useState<z.input<S>>(initial)
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const [otherIssues, setOtherIssues] = useState<string[]>([])

  const checked = useMemo(() => checkValues(schema, values), [schema, values])

  const touch = useCallback((name: string) => {
    setTouched((current) => (current.has(name) ? current : new Set([...current, name])))
  }, [])

  const set = useCallback(
    (name: string, value: unknown) => {
      setValues((current) => ({ ...current, [name]: value }))
      touch(name)
      setServerErrors((current) => withoutKey(current, name))
    },
    [touch],
  ) as SchemaForm<S>['set']

  const text = useCallback(
    (name: string): TextBinding => ({
      name,
      value: String((values as FieldValues)[name] ?? ''),
      onChange: (event) => set(name as never, event.target.value as never),
      onBlur: () => touch(name),
    }),
    [values, set, touch],
  ) as SchemaForm<S>['text']

  const errorOf = (name: string) =>
    serverErrors[name] ?? (touched.has(name) ? checked.fields[name] : undefined)

  const fieldNames = Object.keys(initial as FieldValues)

  /** Puts the fields' issues on them; the placement, for the caller to judge. */
  function place(error: BridgeError) {
    const placed = fieldErrorsFrom(error.details, fieldNames)
    setServerErrors(placed.fields as Record<string, string>)
    setOtherIssues(placed.other)
    return placed
  }

  return {
    values,
    set,
    text,
    field: ((name: string): ValueBinding => ({
      value: String((values as FieldValues)[name] ?? ''),
      onChange: (value) => set(name as never, value as never),
      error: errorOf(name),
    })) as SchemaForm<S>['field'],
    errorOf,
    valid: checked.data !== null,
    data: checked.data,
    check() {
      setTouched(new Set([...fieldNames, ...Object.keys(checked.fields)]))
      return checked.data
    },
    showError(error) {
      if (error.code !== 'VALIDATION_ERROR') return false
      const placed = place(error)
      return placed.other.length === 0 && Object.keys(placed.fields).length > 0
    },
    placeServerErrors(error) {
      return namesFields(error) ? place(error).other : []
    },
    otherIssues,
    reset(next = initial) {
      setValues(next)
      setTouched(new Set())
      setServerErrors({})
      setOtherIssues([])
    },
  }
}

export interface CheckedValues<T> {
  /** The schema's output, or null when any field is invalid. */
  data: T | null
  /** The first message per top-level field; form-wide issues under "". */
  fields: Record<string, string>
}

/** Runs the schema over the form's values: the output, or the first message per field. */
export function checkValues<S extends z.ZodType>(
  schema: S,
  values: unknown,
): CheckedValues<z.output<S>> {
  const parsed = schema.safeParse(values, { error: plainMessage })
  if (parsed.success) return { data: parsed.data, fields: {} }
  const fields: Record<string, string> = {}
  for (const issue of toValidationIssues(parsed.error)) {
    const field = issue.path[0] ?? ''
    fields[field] ??= issue.message
  }
  return { data: null, fields }
}

/**
 * Messages in words for the issues zod words for programmers ("Too small: expected string to
 * have >=1 characters"). A schema's own message (e.g. profileFieldsSchema's) still wins.
 */
export function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'Required'
      if (issue.origin === 'string') return `At least ${issue.minimum} characters`
      if (issue.origin === 'array') return `Choose at least ${issue.minimum}`
      return `At least ${issue.minimum}`
    case 'too_big':
      if (issue.origin === 'string') return `At most ${issue.maximum} characters`
      return `At most ${issue.maximum}`
    case 'invalid_format':
      if (issue.format === 'uuid') return 'Enter a UUID (8-4-4-4-12 hexadecimal digits)'
      return undefined
    case 'invalid_type':
      if (issue.expected === 'number' || issue.expected === 'int') return 'Enter a number'
      if (issue.input === undefined) return 'Required'
      return undefined
    case 'invalid_value':
      return `Choose one of: ${issue.values.map(String).join(', ')}`
    default:
      return undefined
  }
}

/** Whether an error's details name fields: then they go on the form, not in a banner only. */
export function namesFields(error: BridgeError): boolean {
  return (
    (error.code === 'VALIDATION_ERROR' || error.code === 'UNPROCESSABLE_ENTITY') &&
    validationIssuesOf(error.details).length > 0
  )
}

/** The schema's first message for one value (a field outside any form), or undefined. */
export function checkOne(schema: z.ZodType, value: unknown): string | undefined {
  return checkValues(z.object({ value: schema }), { value }).fields['value']
}

function withoutKey(record: Record<string, string>, key: string): Record<string, string> {
  if (!(key in record)) return record
  const { [key]: _removed, ...rest } = record
  void _removed
  return rest
}
