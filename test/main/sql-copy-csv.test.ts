import { describe, expect, it } from 'vitest'
import { formatResult } from '../../src/main/sql/formats'

/*
 * The SQL console's "Copy as CSV" and "Save as CSV" (sql.copy / sql.save write through
 * formatResult): a result is the database's text, so a formula cell is defused.
 * The CLI's `--csv` lists write through the same writer.
 */

describe('SQL result as CSV', () => {
  it('defuses =, +, -1+1+ and @ cells, keeps numbers numeric', () => {
    const text = [
      ...formatResult(
        'csv',
        [
          { name: 'n', dataType: 'int4', display: 'number' },
          { name: '=header', dataType: 'text', display: 'text' },
        ],
        [
          [-5, '=cmd|" /C calc"!A0'],
          [1, '+1'],
          [2, '-1+1+cmd|" /C calc"!A0'],
          [3, '@x'],
        ],
        { headers: true },
      ),
    ].join('')
    expect(text).toBe(
      [
        "n,'=header",
        `-5,"'=cmd|"" /C calc""!A0"`,
        "1,'+1",
        `2,"'-1+1+cmd|"" /C calc""!A0"`,
        "3,'@x",
        '',
      ].join('\r\n'),
    )
  })
})
