import { describe, expect, it } from 'vitest'
import { uploadWaitsFor } from '../../src/renderer/src/features/certificates/upload-readiness'

/*
 * What the Upload dialog's footer says beside its greyed button. Its "Checking the PEM files…"
 * stayed beside the error of a check that had ended (more than 1 MiB of PEM text, say): the
 * note goes once the check is over, with or without an error.
 */

const complete = { name: 'payments-api', certificate: true, privateKey: true, problems: false }

describe('the Upload dialog’s note beside its button', () => {
  it('says the files are being checked only while the check is under way', () => {
    expect(uploadWaitsFor({ ...complete, checked: false, checkFailed: false })).toBe(
      'Checking the PEM files…',
    )
    expect(uploadWaitsFor({ ...complete, checked: true, checkFailed: false })).toBeNull()
  })

  it('says the check failed, not that it is under way, once it ended in an error', () => {
    const note = uploadWaitsFor({ ...complete, checked: false, checkFailed: true })
    expect(note).not.toBeNull()
    expect(note).not.toMatch(/Checking/)
    expect(note).toBe('The PEM files could not be checked (the reason is above).')
    // An earlier check's answer does not let a failed one pass.
    expect(uploadWaitsFor({ ...complete, checked: true, checkFailed: true })).toBe(note)
  })

  it('still names what is missing, and marked fields, first', () => {
    expect(uploadWaitsFor({ ...complete, name: ' ', checked: false, checkFailed: true })).toBe(
      'Upload needs a name.',
    )
    expect(uploadWaitsFor({ ...complete, problems: true, checked: true, checkFailed: true })).toBe(
      'Fix the marked fields first.',
    )
  })
})
