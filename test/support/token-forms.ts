/*
 * The forms in which a service or a proxy may echo an access token, and a search for what of a
 * token is still readable in a text, written independently of the app's redaction code
 * (src/main/api/redaction.ts) so that the tests judge it rather than repeat it.
 */

export const base64 = (text: string) => Buffer.from(text, 'latin1').toString('base64')
export const base64url = (text: string) => Buffer.from(text, 'latin1').toString('base64url')
/** application/x-www-form-urlencoded, as URLSearchParams writes it (`+` for a space). */
export const formEncoded = (text: string) => new URLSearchParams({ t: text }).toString().slice(2)

/**
 * What of `token` is readable in `text`: 12 characters of it in any case (as is, percent- or
 * form-encoded), and a stretch of its base64 (of the token as is, upper- or lower-cased) at each
 * of the three byte alignments, in either alphabet. Empty when nothing is.
 */
export function tokenLeaks(text: string, token: string): string[] {
  const head = token.slice(0, 12)
  const lower = text.toLowerCase()
  const found = [head, encodeURIComponent(head), formEncoded(head)]
    .map((tell) => tell.toLowerCase())
    .filter((tell) => lower.includes(tell))
  for (const variant of [token, token.toUpperCase(), token.toLowerCase()]) {
    for (const pad of ['', 'a', 'ab']) {
      // Characters 4 to 16 are decided by the token's bytes alone, whatever came before it.
      const stretch = base64(pad + variant).slice(4, 16)
      for (const spelled of [stretch, stretch.replace(/\+/g, '-').replace(/\//g, '_')]) {
        if (text.includes(spelled)) found.push(spelled)
      }
    }
  }
  return found
}
