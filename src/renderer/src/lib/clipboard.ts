/**
 * Puts text on the clipboard. The clipboard API needs a secure context (web mode on 127.0.0.1
 * is one); without it this rejects, so the caller can say so instead of pretending it copied.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard === undefined) throw new Error('no clipboard')
  await navigator.clipboard.writeText(text)
}
