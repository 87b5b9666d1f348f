import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadPgParser } from '../../src/main/sql-guard'
import { findPlaceholdersLoaded as findPlaceholders } from '../../src/main/sql-guard/placeholders'
import { tokenize, type Token } from '../../src/shared/sql/lexer'
import {
  bindParameters as bindAt,
  PARAMETER_TYPES,
  ParameterValueError,
  toLiteral,
  type ParameterType,
} from '../../src/shared/sql/parameters'

beforeAll(async () => {
  await loadPgParser()
})

/** Placeholders are found in main (PostgreSQL's scanner), then bound where it found them. */
const bindParameters = (sql: string, bindings: Parameters<typeof bindAt>[2]) =>
  bindAt(sql, findPlaceholders(sql), bindings)
const parameterNames = (sql: string) => [...new Set(names(sql))]
const names = (sql: string) => findPlaceholders(sql).map((placeholder) => placeholder.name)
const shape = (tokens: readonly Token[]) => tokens.map((token) => `${token.kind}:${token.value}`)

/**
 * What a string token means to PostgreSQL. The lexer's token starts at the quote; an `E`
 * prefix stands just before it in the source.
 */
function decodeStringToken(sql: string, token: Token): string {
  expect(token.kind).toBe('string')
  const body = token.value.slice(1, -1).replaceAll("''", "'")
  const escaped = /[eE]/.test(sql[token.from - 1] ?? '')
  return escaped ? body.replace(/\\(.)/gs, '$1') : body
}

describe('findPlaceholders', () => {
  it('finds :name placeholders in text order, repeats included', () => {
    expect(names('select * from t where a = :a and b in (:ids) or a = :a')).toEqual([
      'a',
      'ids',
      'a',
    ])
    expect(parameterNames('select :b, :a, :b')).toEqual(['b', 'a'])
    const [placeholder] = findPlaceholders('select :customer_id')
    expect(placeholder).toEqual({
      name: 'customer_id',
      from: 7,
      to: 19,
      inIdentifierPosition: false,
    })
  })

  it('ignores what only looks like one: strings, comments, dollar quotes, casts, :=, slices', () => {
    expect(names("select ':a', E'\\' :b', \"col:c\"")).toEqual([])
    expect(names('select 1 -- :a\n/* :b /* :c */ */')).toEqual([])
    expect(names('select $$ :a $$, $tag$ :b $tag$')).toEqual([])
    expect(names('select x::text, y::int4, :real::int')).toEqual(['real'])
    expect(names('do $$ begin x := 1; end $$; select a := 1')).toEqual([])
    expect(names('select arr[1:n], arr[:n], arr[lo:hi]')).toEqual([])
    expect(names('select : spaced, :1')).toEqual([])
  })

  it('marks placeholders where a name goes', () => {
    const marked = (sql: string) =>
      findPlaceholders(sql).map((placeholder) => placeholder.inIdentifierPosition)
    expect(marked('select * from :tbl')).toEqual([true])
    expect(marked('select * from t join :other on true')).toEqual([true])
    expect(marked('select t.:col from t')).toEqual([true])
    expect(marked('select :schema.t from x')).toEqual([true])
    expect(marked('select * from t where id = :id')).toEqual([false])
  })
})

describe('toLiteral', () => {
  it('quotes text with doubled quotes, and E-strings when there is a backslash', () => {
    expect(toLiteral('text', "O'Brien")).toBe("'O''Brien'::text")
    expect(toLiteral('text', 'C:\\temp')).toBe("E'C:\\\\temp'::text")
    expect(toLiteral('text', "\\'; drop table t; --")).toBe("E'\\\\''; drop table t; --'::text")
    expect(toLiteral('text', '$$ x $$')).toBe("'$$ x $$'::text")
    expect(toLiteral('text', '')).toBe("''::text")
    expect(() => toLiteral('text', 'a\u0000b')).toThrow(ParameterValueError)
  })

  it('writes NULL with the type cast, and a bare NULL for the null type', () => {
    expect(toLiteral('integer', null)).toBe('NULL::integer')
    expect(toLiteral('uuid', null)).toBe('NULL::uuid')
    expect(toLiteral('null', 'ignored')).toBe('NULL')
  })

  it('validates and casts each type', () => {
    expect(toLiteral('integer', ' 42 ')).toBe("'42'::integer")
    expect(toLiteral('integer', '-2147483648')).toBe("'-2147483648'::integer")
    expect(toLiteral('integer', '9007199254740993')).toBe("'9007199254740993'::bigint")
    expect(toLiteral('numeric', '12.50')).toBe("'12.50'::numeric")
    expect(toLiteral('numeric', '-1e-3')).toBe("'-1e-3'::numeric")
    expect(toLiteral('boolean', 'Yes')).toBe("'true'::boolean")
    expect(toLiteral('boolean', 'off')).toBe("'false'::boolean")
    expect(toLiteral('date', '2024-02-29')).toBe("'2024-02-29'::date")
    expect(toLiteral('timestamp', '2024-01-01 10:30')).toBe("'2024-01-01 10:30'::timestamp")
    expect(toLiteral('timestamp', '2024-01-01T10:30:00.5+02:00')).toBe(
      "'2024-01-01T10:30:00.5+02:00'::timestamptz",
    )
    expect(toLiteral('uuid', '0F8FAD5B-D9CB-469F-A165-70867728950E')).toBe(
      "'0f8fad5b-d9cb-469f-a165-70867728950e'::uuid",
    )
  })

  it('refuses a value that is not of its type, saying what was expected', () => {
    expect(() => toLiteral('integer', '1.5')).toThrow('is not a whole number')
    expect(() => toLiteral('integer', '1; drop table t')).toThrow(ParameterValueError)
    expect(() => toLiteral('integer', '99999999999999999999')).toThrow('too large')
    expect(() => toLiteral('numeric', '1,5')).toThrow('is not a number')
    expect(() => toLiteral('boolean', 'maybe')).toThrow('is not true or false')
    expect(() => toLiteral('date', '2023-02-29')).toThrow('is not a date')
    expect(() => toLiteral('timestamp', '2024-01-01 25:00')).toThrow('is not a timestamp')
    expect(() => toLiteral('uuid', "x' or '1'='1")).toThrow('is not a UUID')
  })
})

describe('bindParameters', () => {
  it('replaces every placeholder, lists included, leaving the rest as written', () => {
    const sql =
      "select * from orders where customer = :name and id in (:ids) and note <> ':name' -- :name"
    expect(
      bindParameters(sql, {
        name: { type: 'text', value: "O'Brien" },
        ids: { type: 'integer', list: ['1', '2', null] },
      }),
    ).toBe(
      "select * from orders where customer = 'O''Brien'::text and id in ('1'::integer, '2'::integer, NULL::integer) and note <> ':name' -- :name",
    )
  })

  it('keeps a literal apart from a word it would glue onto', () => {
    expect(bindParameters('select x:v', { v: { type: 'text', value: 'a\\b' } })).toBe(
      "select x E'a\\\\b'::text",
    )
  })

  it('refuses missing values, empty lists, identifiers and bad values, naming the parameter', () => {
    expect(() => bindParameters('select :a', {})).toThrow('No value for :a')
    expect(() =>
      bindParameters('select 1 in (:ids)', { ids: { type: 'integer', list: [] } }),
    ).toThrow('at least one value')
    expect(() => bindParameters('select * from :t', { t: { type: 'text', value: 'x' } })).toThrow(
      'can only be values',
    )
    try {
      bindParameters('select :n', { n: { type: 'integer', value: 'ten' } })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ParameterValueError)
      expect((error as ParameterValueError).parameter).toBe('n')
      expect((error as ParameterValueError).message).toBe(':n: "ten" is not a whole number')
    }
  })

  it('does not look up inherited names (a placeholder called :constructor)', () => {
    expect(() => bindParameters('select :constructor', {})).toThrow('No value for :constructor')
  })
})

describe('no value changes the statement structure (fast-check)', () => {
  const prefix = 'select * from t where a = '
  const suffix = " and b = 'x' -- end\n; select $$ :z $$ /* c */"
  const arbitraryType = fc.constantFrom<ParameterType>(...PARAMETER_TYPES)
  // Mostly hostile text: quotes, backslashes, dollar tags, comment openers, newlines, any unicode.
  const hostile = fc.oneof(
    fc.string({ unit: 'grapheme-composite' }),
    fc.string({
      unit: fc.constantFrom("'", '\\', '$', '-', '/', '*', '"', ';', '\n', 'E', ':', 'a', '1', ' '),
    }),
    fc.constantFrom('1', '-7', '3.5e2', 'NaN', 'true', 'no', '2024-01-01', '2024-01-01 00:00:00Z'),
    fc.uuid().map(String),
  )

  it('keeps the tokens around the literal the same, and the literal one value', () => {
    const before = tokenize(prefix)
    const after = tokenize(suffix)
    fc.assert(
      fc.property(arbitraryType, fc.option(hostile, { nil: null }), (type, value) => {
        let literal: string
        try {
          literal = toLiteral(type, value)
        } catch (error) {
          // Refused values never reach SQL; refusing is only for values not of the type.
          expect(error).toBeInstanceOf(ParameterValueError)
          expect(
            type === 'text' ? value?.includes('\u0000') : type !== 'null' && value !== null,
          ).toBe(true)
          return
        }
        const sql = bindParameters(`${prefix}:p${suffix}`, { p: { type, value } })
        expect(sql).toBe(`${prefix}${literal}${suffix}`)
        const tokens = tokenize(sql)
        expect(shape(tokens.slice(0, before.length))).toEqual(shape(before))
        const literalTokens = tokens.slice(before.length, tokens.length - after.length)
        expect(shape(tokens.slice(tokens.length - after.length))).toEqual(shape(after))
        if (type === 'null') {
          expect(shape(literalTokens)).toEqual(['word:null'])
          return
        }
        // One value, then `::type`: [string or NULL, ':', ':', type word].
        expect(literalTokens).toHaveLength(4)
        expect(shape(literalTokens.slice(1, 3))).toEqual(['punctuation::', 'punctuation::'])
        expect(literalTokens[3]!.kind).toBe('word')
        if (value === null) {
          expect(literalTokens[0]!.value).toBe('null')
          return
        }
        expect(literalTokens[0]!.kind).toBe('string')
        if (type === 'text') expect(decodeStringToken(sql, literalTokens[0]!)).toBe(value)
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps lists to their values and commas', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 5 }), (values) => {
        const safe = values.filter((value) => !value.includes('\u0000'))
        fc.pre(safe.length > 0)
        const sql = bindParameters(`${prefix}any(array[0]) or a in (:p)${suffix}`, {
          p: { type: 'text', list: safe },
        })
        const tokens = tokenize(sql)
        const open = tokens.findIndex(
          (token, index) => token.value === '(' && tokens[index - 1]?.value === 'in',
        )
        const inside = tokens.slice(open + 1, open + 1 + safe.length * 5 - 1)
        expect(
          inside
            .filter((token) => token.kind === 'string')
            .map((token) => decodeStringToken(sql, token)),
        ).toEqual(safe)
        expect(tokens[open + safe.length * 5]!.value).toBe(')')
        const afterList = tokens.slice(open + safe.length * 5 + 1)
        expect(shape(afterList)).toEqual(shape(tokenize(suffix)))
      }),
    )
  })
})
