/*
 * Where a secret (an access token) stands in a text, in the forms a service, a proxy or a
 * debugging middlebox may echo it . `errors.ts` cuts what is found here.
 *
 * A token of MIN_SUBSTRING_SECRET_LENGTH characters or more is random enough that its text
 * anywhere is taken to be the token, so it is found:
 *   - as is, in any letter case (a service that upper-cases what it quotes);
 *   - percent-encoded (encodeURIComponent, and form encoding with `+` for a space);
 *   - truncated: any prefix of MIN_ECHOED_PREFIX_LENGTH characters or more ("token
 *     abcdefghijkl… is expired"), each of the above forms too;
 *   - base64 and base64url, padded or not, of the token alone or inside a longer encoded text
 *     (`base64("Authorization: Bearer <token>")`): the token then starts at one of three byte
 *     alignments, and each gives the run of characters that only the token's bytes decide. A
 *     base64 match cuts the whole base64 word around it, since its neighbouring characters hold
 *     a few of the token's bits.
 * A shorter token would match inside ordinary words (a one-letter token is every "t" of "Could
 * not connect"), so it is found only where it stands alone: between characters that are not
 * letters or digits, in its exact case, as is or percent-encoded; and as the base64 word of the
 * token or of `Bearer <token>` (the latter also inside a longer base64 word).
 */

/**
 * From this length on, a secret is found anywhere in a text, in any case. 8 is what the secret
 * registry always required of a token before it would redact it: at 8 random characters a
 * false match in a message is negligible, while a dictionary word of 7 letters or fewer, as a
 * misconfigured token, would otherwise cut ordinary words out of every message.
 */
const MIN_SUBSTRING_SECRET_LENGTH = 8

/** A prefix this long of a token is the token (a service that truncates what it echoes). */
const MIN_ECHOED_PREFIX_LENGTH = 12

/** Half-open [start, end) character range of a text. */
export type TextRange = readonly [start: number, end: number]

interface SecretMatcher {
  find(text: string): TextRange[]
}

/** Every range of `text` that holds one of `secrets` in any form above; unsorted, may overlap. */
export function findSecrets(text: string, secrets: readonly string[]): TextRange[] {
  return secrets.flatMap((secret) => (secret.length === 0 ? [] : matcherOf(secret).find(text)))
}

/** `text` with each range (merged where they overlap or touch) replaced by `replacement`. */
export function replaceRanges(
  text: string,
  ranges: readonly TextRange[],
  replacement: string,
): string {
  if (ranges.length === 0) return text
  const merged: [number, number][] = []
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1)
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end)
    else merged.push([start, end])
  }
  let result = ''
  let copied = 0
  for (const [start, end] of merged) {
    result += text.slice(copied, start) + replacement
    copied = end
  }
  return result + text.slice(copied)
}

/* --------------------------------------------------------------- matchers */

/*
 * A matcher's regular expressions are built once per secret: errors are redacted against the
 * same few tokens again and again. The cache holds nothing the secret registry does not already
 * hold in memory; it is bounded so a long run that meets many tokens does not grow without end.
 */
const matchers = new Map<string, SecretMatcher>()
const MAX_CACHED_MATCHERS = 64

function matcherOf(secret: string): SecretMatcher {
  let matcher = matchers.get(secret)
  if (matcher === undefined) {
    if (matchers.size >= MAX_CACHED_MATCHERS) matchers.clear()
    matcher =
      secret.length >= MIN_SUBSTRING_SECRET_LENGTH
        ? longSecretMatcher(secret)
        : shortSecretMatcher(secret)
    matchers.set(secret, matcher)
  }
  return matcher
}

function longSecretMatcher(secret: string): SecretMatcher {
  const head = Array.from(secret).slice(0, MIN_ECHOED_PREFIX_LENGTH).join('')
  // Each text form: its head is what must appear, then the match runs on while the form does.
  const texts = uniqueBy(
    TEXT_FORMS.flatMap((form) => {
      const needle = form(head)
      const full = form(secret)
      return needle === null || full === null ? [] : [{ needle, full }]
    }),
    (form) => form.needle,
  ).map(({ needle, full }) => ({ pattern: new RegExp(escapeRegExp(needle), 'gi'), full }))
  const caseVariants = unique([head, head.toUpperCase(), head.toLowerCase()])
  const base64 = base64Pattern(caseVariants.flatMap(base64Fragments))
  return {
    find(text) {
      const ranges: TextRange[] = []
      for (const { pattern, full } of texts) {
        for (const match of text.matchAll(pattern)) {
          const start = match.index
          ranges.push([start, start + commonLength(text, start, full, match[0].length)])
        }
      }
      return ranges.concat(base64Words(text, base64))
    },
  }
}

function shortSecretMatcher(secret: string): SecretMatcher {
  const alone = (needle: string) => `(?<![\\p{L}\\p{N}])${escapeRegExp(needle)}(?![\\p{L}\\p{N}])`
  const forms = unique(TEXT_FORMS.map((form) => form(secret)).filter(isString))
  const standalone = new RegExp(forms.map(alone).join('|'), 'gu')
  // `Bearer <token>` is long enough to be found inside a longer base64 word; the bare token's
  // base64 (a few characters) only as a whole word.
  const bearer = base64Pattern(base64Fragments(`Bearer ${secret}`))
  const bare = unique(byteForms(secret).flatMap((bytes) => base64Spellings(bytes)))
  const bareWord = new RegExp(
    `(?<![${BASE64_CLASS}])(?:${bare.map(escapeRegExp).join('|')})(?![${BASE64_CLASS}])`,
    'g',
  )
  return {
    find(text) {
      const ranges: TextRange[] = []
      for (const pattern of [standalone, bareWord]) {
        for (const match of text.matchAll(pattern)) {
          ranges.push([match.index, match.index + match[0].length])
        }
      }
      return ranges.concat(base64Words(text, bearer))
    },
  }
}

/* ------------------------------------------------------------ text forms */

/** How a token may be spelled in text; null when the form cannot encode it. */
const TEXT_FORMS: readonly ((text: string) => string | null)[] = [
  (text) => text,
  (text) => attempt(() => encodeURIComponent(text)),
  // application/x-www-form-urlencoded: a space is `+`, and !'()~ are encoded too.
  (text) => new URLSearchParams({ t: text }).toString().slice(2),
]

/** How many characters of `text` from `start` spell the start of `full`, in any case. */
function commonLength(text: string, start: number, full: string, atLeast: number): number {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
  let length = atLeast
  while (
    length < full.length &&
    start + length < text.length &&
    same(text.charAt(start + length), full.charAt(length))
  ) {
    length += 1
  }
  return length
}

/* ---------------------------------------------------------------- base64 */

/** Every base64 and base64url character, and padding: what one base64 word is made of. */
const BASE64_CLASS = 'A-Za-z0-9+/_=-'
const BASE64_CHAR = new RegExp(`[${BASE64_CLASS}]`)

/**
 * The base64 characters that `text`'s bytes alone decide when they start at each of the three
 * byte alignments of a longer encoded text; in the standard alphabet (see base64Pattern).
 */
function base64Fragments(text: string): string[] {
  return byteForms(text).flatMap((bytes) =>
    [0, 1, 2].map((offset) => {
      const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
      // Character i holds bits [6i, 6i + 6); keep those inside the text's bits.
      const first = Math.ceil((8 * offset) / 6)
      const end = Math.floor((8 * (offset + bytes.length)) / 6)
      return encoded.slice(first, end)
    }),
  )
}

/** Whole base64 spellings of `bytes`: standard and url alphabets, padded and not. */
function base64Spellings(bytes: Buffer): string[] {
  const padded = bytes.toString('base64')
  const url = bytes.toString('base64url')
  return [padded, padded.replace(/=+$/, ''), url, `${url}${'='.repeat(padded.length - url.length)}`]
}

/** One expression for fragments in either alphabet: `+` or `-`, `/` or `_`. */
function base64Pattern(fragments: readonly string[]): RegExp {
  const alternatives = unique(fragments)
    .filter((fragment) => fragment.length > 0)
    .map((fragment) => escapeRegExp(fragment).replace(/\\\+/g, '[+-]').replace(/\//g, '[/_]'))
  // An empty alternation would match everywhere; a fragment list is never empty, but be sure.
  return alternatives.length === 0 ? /(?!)/g : new RegExp(alternatives.join('|'), 'g')
}

/** The whole base64 word around each match of `pattern`. */
function base64Words(text: string, pattern: RegExp): TextRange[] {
  const ranges: TextRange[] = []
  for (const match of text.matchAll(pattern)) {
    let start = match.index
    let end = start + match[0].length
    while (start > 0 && BASE64_CHAR.test(text.charAt(start - 1))) start -= 1
    while (end < text.length && BASE64_CHAR.test(text.charAt(end))) end += 1
    ranges.push([start, end])
  }
  return ranges
}

/**
 * The bytes a token may have been encoded from: UTF-8 (a service in JavaScript), and Latin-1,
 * which is how an HTTP header carries characters up to U+00FF.
 */
function byteForms(text: string): Buffer[] {
  const utf8 = Buffer.from(text, 'utf8')
  if ([...text].some((char) => char.charCodeAt(0) > 0xff)) return [utf8]
  const latin1 = Buffer.from(text, 'latin1')
  return latin1.equals(utf8) ? [utf8] : [utf8, latin1]
}

/* ----------------------------------------------------------------- helpers */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)]
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>()
  for (const item of items) if (!byKey.has(key(item))) byKey.set(key(item), item)
  return [...byKey.values()]
}

function isString(value: string | null): value is string {
  return value !== null
}

/** `encode()`, or null when it throws (encodeURIComponent on a lone surrogate). */
function attempt(encode: () => string): string | null {
  try {
    return encode()
  } catch {
    return null
  }
}
