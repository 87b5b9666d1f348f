import { expect, it } from 'vitest'

/*
 * The screens' words for raw values (an operation's name, a status, an error code) are tables:
 * one test per row, named by the value and the words it must read as, so a failure names the
 * row that broke.
 */

/** One test per `[value, words]`: `wordsOf(value)` is exactly `words`. */
export function itWords<T>(
  what: string,
  wordsOf: (value: T) => unknown,
  rows: ReadonlyArray<readonly [T, string]>,
): void {
  it.each(rows.map(([value, words]) => ({ value, words })))(
    `${what} $value reads "$words"`,
    ({ value, words }) => {
      expect(wordsOf(value)).toBe(words)
    },
  )
}
