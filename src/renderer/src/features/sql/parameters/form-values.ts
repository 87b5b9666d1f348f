import type { ParameterBinding, ParameterType } from '../../../../../shared/sql/parameters'
import { parseQueryHeader } from '../../../../../shared/sql/query-header'

/*
 * The parameter form's values and what they bind to: pure, so tested without a page
 * (test/renderer/sql-parameter-form.test.ts).
 */

export interface FormValue {
  type: ParameterType
  list: boolean
  isNull: boolean
  /** The value as typed; for a list, one value per line. */
  text: string
}

/**
 * The form's starting values: what this tab last sent for a name, else the type the text's
 * header declares (`-- param :id uuid`), else text.
 */
export function initialValues(
  names: readonly string[],
  editorText: string,
  last: Readonly<Record<string, FormValue>>,
): Record<string, FormValue> {
  const declared = parseQueryHeader(editorText).parameters
  const values: Record<string, FormValue> = {}
  for (const name of names) {
    const header = declared.find((parameter) => parameter.name === name)
    values[name] = last[name] ?? {
      type: header?.type ?? 'text',
      list: header?.list ?? false,
      isNull: false,
      text: '',
    }
  }
  return values
}

/** A form value as a binding: a list's lines (blank ones skipped), NULL, or the text. */
export function toBinding(value: FormValue): ParameterBinding {
  if (value.list) {
    const lines = value.text.split('\n').filter((line) => line.trim() !== '')
    return { type: value.type, list: lines }
  }
  return { type: value.type, value: value.isNull ? null : value.text }
}
