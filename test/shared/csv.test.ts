import { describe, expect, it } from 'vitest'
import { csvField, csvLine, isSpreadsheetFormula } from '../../src/shared/csv'

/*
 * The one CSV field writer: every cell a spreadsheet would run as a formula gets a
 * leading apostrophe, including the `-1+1+cmd|…` the Expiring export's old `^-?\d` rule let
 * through, and one behind leading whitespace; a plain negative number stays a number.
 */

const FORMULAS = [
  '=cmd|" /C calc"!A0',
  '+1',
  '-1+1+cmd|" /C calc"!A0',
  '@x',
  '\t=1',
  '\r=1',
  ' =1+1',
  '\n@SUM(A1)',
]

describe('csvField', () => {
  it.each(FORMULAS)('defuses the formula start of %j with a leading apostrophe', (formula) => {
    expect(isSpreadsheetFormula(formula)).toBe(true)
    // Quoted or not, the field's text begins with the apostrophe.
    expect(csvField(formula).replace(/^"/, '')).toMatch(/^'/)
  })

  it('puts the apostrophe inside the quotes a field needs', () => {
    expect(csvField('-1+1+cmd|x')).toBe("'-1+1+cmd|x")
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
  })

  it('keeps a plain negative decimal a number and ordinary text as it is', () => {
    expect(csvField('-35')).toBe('-35')
    expect(csvField('-1.5')).toBe('-1.5')
    expect(csvField('api.example.com')).toBe('api.example.com')
    expect(csvField('a-b=c')).toBe('a-b=c')
  })

  it('quotes per RFC 4180 and keeps NULL apart from the empty string', () => {
    expect(csvField(null)).toBe('')
    expect(csvField('')).toBe('""')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField(' edge')).toBe('" edge"')
    expect(csvLine(['a', null, '=1'])).toBe("a,,'=1\r\n")
  })
})
