/*
 * The file name in a Content-Disposition header (RFC 6266): `filename*=UTF-8''%E2%82%AC.pem`
 * wins over `filename="plain.pem"`. The name is returned as the service wrote it; whoever writes
 * it to disk sanitises it (a name from the network never chooses a path).
 */

export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header)?.[1]
  if (extended !== undefined) {
    const decoded = decodeExtendedValue(extended.trim())
    if (decoded) return decoded
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1]
  if (quoted !== undefined) return quoted.replace(/\\(.)/g, '$1') || null
  const bare = /(?:^|;)\s*filename\s*=\s*([^;\s]+)/i.exec(header)?.[1]
  return bare ?? null
}

/** RFC 8187 `charset'language'percent-encoded`; UTF-8 and ISO-8859-1 are the charsets defined. */
function decodeExtendedValue(value: string): string | null {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value.replace(/^"(.*)"$/, '$1'))
  if (!match) return null
  const charset = (match[1] ?? '').toLowerCase()
  const encoded = match[2] ?? ''
  try {
    if (charset === 'utf-8' || charset === '') return decodeURIComponent(encoded) || null
    if (charset === 'iso-8859-1') {
      return (
        encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        ) || null
      )
    }
  } catch {
    // Broken percent-encoding: fall back to the plain `filename` parameter.
  }
  return null
}
