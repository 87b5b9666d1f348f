import { beforeAll, describe, expect, it } from 'vitest'
import { loadPgParser } from '../../src/main/sql-guard'
import { findPlaceholdersLoaded } from '../../src/main/sql-guard/placeholders'
import {
  initialValues,
  toBinding,
  type FormValue,
} from '../../src/renderer/src/features/sql/parameters/form-values'
import { bindParameters } from '../../src/shared/sql/parameters'

const HEADER = '-- title: t\n-- param :id uuid\n-- param :ids integer list\nselect 1'

beforeAll(async () => {
  await loadPgParser()
})

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
    expect(bindParameters(sql, findPlaceholdersLoaded(sql), bindings)).toBe(
      "select ' O''Brien '::text where id in ('1'::integer, '2'::integer) and country = NULL::text",
    )
  })
})
