/**
 * JSON text re-indented without parsing it into values, so a number keeps every digit it was
 * sent with (JSON.parse would round 12345678901234567890 through a double). Null when the text
 * is not balanced JSON.
 */
export function prettyJsonText(text: string, indent = '  '): string | null {
  let out = ''
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!
    if (inString) {
      out += char
      if (char === '\\') {
        out += text[index + 1] ?? ''
        index += 1
      } else if (char === '"') inString = false
      continue
    }
    if (/\s/.test(char)) continue
    if (char === '"') {
      inString = true
      out += char
    } else if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']'
      const next = text.slice(index + 1).trimStart()[0]
      if (next === close) {
        out += char + close
        index = text.indexOf(close, index + 1)
        continue
      }
      depth += 1
      out += `${char}\n${indent.repeat(depth)}`
    } else if (char === '}' || char === ']') {
      depth -= 1
      if (depth < 0) return null
      out += `\n${indent.repeat(depth)}${char}`
    } else if (char === ',') {
      out += `,\n${indent.repeat(depth)}`
    } else if (char === ':') {
      out += ': '
    } else {
      out += char
    }
  }
  return depth === 0 && !inString ? out : null
}
