import { useEffect, useState, type RefObject } from 'react'
import type { z } from 'zod'
import type { OperationName } from '../../../../shared/api'
import { useOperationRequest } from '../../app/operation-request'
import type { SchemaForm } from '../../lib/schema-form'

/*
 * An operation screen whose form is the operation: the palette's "<operation> <id>" (or a link
 * with `op=`) fills the ids in, each into the field named as the path's parameter (`id`,
 * `routeId`, `nodeId`…), and puts the focus where the user goes on: the first field still
 * empty, else the submit button. Fields the request does not name keep what was typed.
 */

/** What the screens' forms offer: useSchemaForm's (schemaFormFill), or a screen's own fields. */
export interface FillableForm {
  /** The names of the form's fields. */
  fields: readonly string[]
  fill(ids: Readonly<Record<string, string>>): void
}

/** A useSchemaForm form as a FillableForm: the ids replace those fields, the rest stay. */
export function schemaFormFill<S extends z.ZodType<unknown, Record<string, unknown>>>(
  form: SchemaForm<S>,
): FillableForm {
  return {
    fields: Object.keys(form.values as Record<string, unknown>),
    fill: (ids) => form.reset({ ...form.values, ...ids }),
  }
}

export function useOperationForm(
  accepted: readonly OperationName[],
  form: FillableForm,
  formRef: RefObject<HTMLFormElement | null>,
): void {
  // Counts the requests applied: the focus moves after the render that shows their ids.
  const [applied, setApplied] = useState(0)
  useOperationRequest(accepted, (request) => {
    const ids = Object.fromEntries(
      Object.entries(request.ids).filter(([name]) => form.fields.includes(name)),
    )
    if (Object.keys(ids).length > 0) form.fill(ids)
    setApplied((count) => count + 1)
  })
  useEffect(() => {
    if (applied > 0) focusNextStep(formRef.current)
  }, [applied, formRef])
}

/** The first empty text field of the form, else its submit button. */
export function focusNextStep(form: HTMLFormElement | null): void {
  if (form === null) return
  const fields = form.querySelectorAll<HTMLInputElement>('input:not([type]), input[type=text]')
  const empty = [...fields].find((input) => !input.disabled && input.value.trim() === '')
  const next = empty ?? form.querySelector<HTMLButtonElement>('button[type=submit]')
  next?.focus()
}
