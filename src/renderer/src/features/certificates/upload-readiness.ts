/*
 * What the Upload dialog waits for before it can send (UploadDialog): pure, so the words are
 * checked without a browser.
 */

import { inWords } from '../../lib/in-words'

/**
 * Why Upload cannot be pressed yet, said beside it (a greyed button alone does not tell a
 * newcomer that the name is missing), or null when it can.
 */
export function uploadWaitsFor(state: {
  name: string
  certificate: boolean
  privateKey: boolean
  /** Main has checked the material as it stands. */
  checked: boolean
  /** The last check ended in an error (shown above): it is over, not under way. */
  checkFailed: boolean
  /** A field is marked with a problem. */
  problems: boolean
}): string | null {
  const missing = [
    ...(state.name.trim() === '' ? ['a name'] : []),
    ...(state.certificate ? [] : ['the certificate']),
    ...(state.privateKey ? [] : ['its private key']),
  ]
  if (missing.length > 0) return `Upload needs ${inWords(missing, 'and')}.`
  if (state.problems) return 'Fix the marked fields first.'
  if (state.checkFailed) return 'The PEM files could not be checked (the reason is above).'
  if (!state.checked) return 'Checking the PEM files…'
  return null
}
