import { useCallback, useRef, useState } from 'react'
import type { z } from 'zod'
import { validationIssuesOf, type OperationName } from '../../../../shared/api'
import type { BridgeError } from '../../../../shared/bridge'
import { asBridgeError, bridge } from '../../bridge'
import { fieldErrorsFrom } from '../../lib/errors'

/*
 * The small form logic the operation screens share (issue 8 part B): a field checked with the
 * service contract's own schema as the user types, and a call whose 400 lands on the fields it
 * names. Kept beside these screens until the app has one shared field helper.
 */

/** The schema's first message for `value`, or undefined when it is valid. */
export function checkWith(schema: z.ZodType, value: unknown): string | undefined {
  const parsed = schema.safeParse(value)
  if (parsed.success) return undefined
  const issue = parsed.error.issues[0]
  if (issue === undefined) return 'Not valid'
  // zod's own wording for the common cases reads as jargon; say what the field wants.
  if (issue.code === 'invalid_format' && 'format' in issue && issue.format === 'uuid') {
    return 'Enter a UUID (8-4-4-4-12 hexadecimal digits)'
  }
  if (issue.code === 'too_small' && typeof value === 'string' && value === '') return 'Required'
  return issue.message
}

/**
 * Live checks for a form: an empty field says nothing until the user tried to send, a filled
 * one is checked at each keystroke; `server` holds what the service said about each field until
 * that field changes.
 */
export function useFieldChecks<F extends string>(
  values: Record<F, string>,
  checks: Record<F, (value: string) => string | undefined>,
) {
  const [submitted, setSubmitted] = useState(false)
  const [server, setServer] = useState<Partial<Record<F, { value: string; message: string }>>>({})
  const errors = {} as Partial<Record<F, string>>
  for (const field of Object.keys(checks) as F[]) {
    const value = values[field]
    const live = value === '' && !submitted ? undefined : checks[field](value)
    const fromServer = server[field]
    errors[field] = live ?? (fromServer?.value === value ? fromServer.message : undefined)
  }
  const valid = (Object.keys(checks) as F[]).every(
    (field) => checks[field](values[field]) === undefined,
  )
  return {
    errors,
    valid,
    /** Call when the user tries to send: shows the errors of empty fields too. */
    attempt(): boolean {
      setSubmitted(true)
      return valid
    },
    /**
     * Places an error's `details[]` (path, message) on the fields they name; returns messages
     * that name none. A 400 always has them; a 422 may (the sandbox's op 4 names parentId).
     */
    placeServerErrors(error: BridgeError): string[] {
      const placed = fieldErrorsFrom(error.details, Object.keys(checks) as F[])
      const next: Partial<Record<F, { value: string; message: string }>> = {}
      for (const [field, message] of Object.entries(placed.fields) as [F, string][]) {
        next[field] = { value: values[field], message }
      }
      setServer(next)
      return placed.other
    },
    reset() {
      setSubmitted(false)
      setServer({})
    },
  }
}

export interface ServiceCallInput {
  params?: Record<string, string>
  query?: Record<string, unknown>
  body?: unknown
}

export type CallOutcome<T> = { ok: true; value: T } | { ok: false; error: BridgeError }

/** State of one call at a time; an answer that arrives after a newer call started is dropped. */
export function useCall<T>() {
  const [state, setState] = useState<{
    busy: boolean
    error: BridgeError | null
    value: T | null
  }>({ busy: false, error: null, value: null })
  const generation = useRef(0)

  const run = useCallback(async (work: () => Promise<T>): Promise<CallOutcome<T>> => {
    const mine = ++generation.current
    setState((current) => ({ ...current, busy: true, error: null }))
    try {
      const value = await work()
      if (mine === generation.current) setState({ busy: false, error: null, value })
      return { ok: true, value }
    } catch (error) {
      const bridgeError = asBridgeError(error)
      if (mine === generation.current) {
        setState((current) => ({ ...current, busy: false, error: bridgeError }))
      }
      return { ok: false, error: bridgeError }
    }
  }, [])

  const clear = useCallback(() => {
    generation.current += 1
    setState({ busy: false, error: null, value: null })
  }, [])

  return { ...state, run, clear }
}

/** Whether an error's details name fields: then they go on the form, not in a banner only. */
export function namesFields(error: BridgeError): boolean {
  return (
    (error.code === 'VALIDATION_ERROR' || error.code === 'UNPROCESSABLE_ENTITY') &&
    validationIssuesOf(error.details).length > 0
  )
}

/** One of the 22 operations through `service.call` (validated in main, logged when it writes). */
export function callOperation(
  profileId: string,
  operation: OperationName,
  input: ServiceCallInput = {},
): Promise<unknown> {
  return bridge.call('service.call', {
    profileId,
    operation,
    params: input.params ?? {},
    query: input.query ?? {},
    ...(input.body === undefined ? {} : { body: input.body }),
  })
}

/** `data` of a data envelope, when the answer is one. */
export function dataOf(answer: unknown): unknown {
  if (typeof answer === 'object' && answer !== null && 'data' in answer) {
    return (answer as { data: unknown }).data
  }
  return answer
}

/** A loose object's field as text, when it is a string or a number. */
export function text(value: unknown, key: string): string | null {
  if (typeof value !== 'object' || value === null) return null
  const field = (value as Record<string, unknown>)[key]
  if (typeof field === 'string') return field
  if (typeof field === 'number') return String(field)
  return null
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
