import { describe, expect, it } from 'vitest'
import {
  initialValues,
  toBinding,
  type FormValue,
} from '../../src/renderer/src/features/sql/parameters/form-values'
import { bindParameters } from '../../src/shared/sql/parameters'

const HEADER = '-- title: t\n-- param :id uuid\n-- param :ids integer list\nselect 1'

describe('the parameter form', () => {
  it('starts from the header, then from what the tab last sent', () => {
    const fresh = initialValues(['id', 'ids', 'other'], HEADER, {})
    expect(fresh).toEqual({
      id: { type: 'uuid', list: false, isNull: false, text: '' },
      ids: { type: 'integer', list: true, isNull: false, text: '' },
      other: { type: 'text', list: false, isNull: false, text: '' },
    })
    const last: Record<string, FormValue> = {
      id: { type: 'text', list: false, isNull: true, text: 'x' },
    }
    expect(initialValues(['id'], HEADER, last)).toEqual({ id: last['id'] })
  })

  it('binds a list by lines, NULL as NULL, text as typed', () => {
    const bindings = {
      ids: toBinding({ type: 'integer', list: true, isNull: false, text: '1\n\n 2 \n' }),
      name: toBinding({ type: 'text', list: false, isNull: false, text: " O'Brien " }),
      country: toBinding({ type: 'text', list: false, isNull: true, text: 'ignored' }),
    }
    const sql = 'select :name where id in (:ids) and country = :country'
    // Where main's scanner finds the placeholders (sql-guard/placeholders.ts).
    const at = (name: string) => {
      const from = sql.indexOf(`:${name}`)
      return { name, from, to: from + name.length + 1, inIdentifierPosition: false }
    }
    expect(bindParameters(sql, [at('name'), at('ids'), at('country')], bindings)).toBe(
      "select ' O''Brien '::text where id in ('1'::integer, '2'::integer) and country = NULL::text",
    )
  })
})
