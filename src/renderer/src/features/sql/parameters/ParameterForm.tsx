import { useState, type ReactElement } from 'react'
import { create } from 'zustand'
import type { SqlPlannedStatement } from '../../../../../shared/bridge/channels/sql'
import {
  bindParameters,
  PARAMETER_TYPES,
  ParameterValueError,
  type ParameterType,
} from '../../../../../shared/sql/parameters'
import type { Statement } from '../../../../../shared/sql/statement'
import { Button } from '../../../ui/Button'
import { Dialog } from '../../../ui/Dialog'
import { initialValues, toBinding, type FormValue } from './form-values'

/*
 * Named parameters before a run: when the statements to run hold `:name`
 * placeholders (main found them with PostgreSQL's scanner: `sql.plan`), a small form asks for a type and a value per name, then hands back the
 * statements with each placeholder replaced by a quoted, cast literal
 * (src/shared/sql/parameters.ts). What it hands back is what is sent and what history keeps.
 * Types start from the file's header (`-- param :id uuid`); the last values of a tab are kept
 * for its next run, in memory only (values may be sensitive; they are not written anywhere).
 */

const useLastValues = create<{
  byTab: Record<string, Record<string, FormValue>>
  remember(tabId: string, values: Record<string, FormValue>): void
}>((set) => ({
  byTab: {},
  remember: (tabId, values) =>
    set((state) => ({ byTab: { ...state.byTab, [tabId]: { ...state.byTab[tabId], ...values } } })),
}))

interface Pending {
  statements: SqlPlannedStatement[]
  names: string[]
  values: Record<string, FormValue>
  resume(bound: Statement[]): void
}

export interface ParameterForm {
  /**
   * When the statements hold placeholders, opens the form and returns true; `resume` gets the
   * statements as sent once the user fills it in (never, if they cancel). False: run as they are.
   */
  ask(
    statements: SqlPlannedStatement[],
    editorText: string,
    resume: (bound: Statement[]) => void,
  ): boolean
  element: ReactElement | null
}

export function useParameterForm(tabId: string): ParameterForm {
  const [pending, setPending] = useState<Pending | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [formError, setFormError] = useState<string | null>(null)

  const ask: ParameterForm['ask'] = (statements, editorText, resume) => {
    const names = [
      ...new Set(statements.flatMap((statement) => statement.placeholders.map((p) => p.name))),
    ]
    if (names.length === 0) return false
    const values = initialValues(names, editorText, useLastValues.getState().byTab[tabId] ?? {})
    setErrors({})
    setFormError(null)
    setPending({ statements, names, values, resume })
    return true
  }

  const change = (name: string, patch: Partial<FormValue>) =>
    setPending((current) =>
      current === null
        ? null
        : {
            ...current,
            values: { ...current.values, [name]: { ...current.values[name]!, ...patch } },
          },
    )

  const submit = () => {
    if (pending === null) return
    const bindings = Object.fromEntries(
      pending.names.map((name) => [name, toBinding(pending.values[name]!)]),
    )
    const bound: Statement[] = []
    const nextErrors: Record<string, string> = {}
    for (const statement of pending.statements) {
      try {
        // Offsets stay the statement's place in the editor; the text is the one sent.
        const text = bindParameters(statement.text, statement.placeholders, bindings)
        bound.push({ text, from: statement.from, to: statement.to })
      } catch (caught) {
        if (!(caught instanceof ParameterValueError)) throw caught
        if (caught.parameter === null) setFormError(caught.message)
        else nextErrors[caught.parameter] ??= caught.message
      }
    }
    setErrors(nextErrors)
    if (Object.keys(nextErrors).length > 0 || bound.length !== pending.statements.length) return
    useLastValues.getState().remember(tabId, pending.values)
    setPending(null)
    pending.resume(bound)
  }

  const element =
    pending === null ? null : (
      <Dialog
        open
        title="Parameters"
        width="wide"
        onClose={() => setPending(null)}
        footer={
          <>
            <Button onClick={() => setPending(null)}>Cancel</Button>
            <Button variant="primary" onClick={submit}>
              Run with these values
            </Button>
          </>
        }
      >
        <form
          className="sql-parameters"
          onSubmit={(event) => {
            event.preventDefault()
            submit()
          }}
        >
          <p className="muted">
            Each value is sent as a quoted literal with a cast, e.g. <code>'O''Brien'::text</code>;
            a list fills <code>IN (:ids)</code>, one value per line.
          </p>
          {pending.names.map((name) => {
            const value = pending.values[name]!
            const error = errors[name]
            return (
              <fieldset key={name} className="sql-parameter" aria-invalid={error !== undefined}>
                <legend>:{name}</legend>
                <select
                  className="input"
                  aria-label={`Type of :${name}`}
                  value={value.type}
                  onChange={(event) => change(name, { type: event.target.value as ParameterType })}
                >
                  {PARAMETER_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                </select>
                {value.list ? (
                  <textarea
                    className="input"
                    aria-label={`Values of :${name}, one per line`}
                    rows={3}
                    value={value.text}
                    onChange={(event) => change(name, { text: event.target.value })}
                  />
                ) : (
                  <input
                    className="input"
                    autoComplete="off"
                    aria-label={`Value of :${name}`}
                    disabled={value.isNull || value.type === 'null'}
                    value={value.text}
                    onChange={(event) => change(name, { text: event.target.value })}
                  />
                )}
                <label className="checkbox">
                  <input
                    type="checkbox"
                    aria-label={`:${name} is NULL`}
                    checked={value.isNull}
                    disabled={value.list}
                    onChange={(event) => change(name, { isNull: event.target.checked })}
                  />
                  NULL
                </label>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    aria-label={`:${name} is a list`}
                    checked={value.list}
                    onChange={(event) =>
                      change(name, { list: event.target.checked, isNull: false })
                    }
                  />
                  List
                </label>
                <FieldAlert text={error} />
              </fieldset>
            )
          })}
          <FieldAlert text={formError} />
          {/* Enter in a value field submits the form. */}
          <button type="submit" hidden />
        </form>
      </Dialog>
    )

  return { ask, element }
}

/** A value's or the form's refusal, announced; nothing when there is none. */
function FieldAlert({ text }: { text: string | null | undefined }) {
  if (text === null || text === undefined) return null
  return (
    <div className="field-error" role="alert">
      {text}
    </div>
  )
}
