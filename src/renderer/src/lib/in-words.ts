/** A list as a sentence says it: "a", "a and b", "a, b or c". */
export function inWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  return items.length < 2
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`
}
