import { useCallback, useRef, useState } from 'react'
import type { OperationName } from '../../../../shared/api'
import type { BridgeError } from '../../../../shared/bridge'
import { asBridgeError, bridge } from '../../bridge'

/*
 * The calls the operation screens share: one call at a time with its state, an operation through
 * `service.call`, and readers of its loose answer. Their forms are lib/schema-form's.
 */

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
