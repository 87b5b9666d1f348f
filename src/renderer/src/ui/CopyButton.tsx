import { useState } from 'react'
import { copyText } from '../lib/clipboard'
import { Button } from './Button'
import { StatusNote } from './StatusNote'

/*
 * "Copy" beside a long value (a SHA-256, a serial, a path) that a cell shows shortened or may
 * clip: the value goes to the clipboard whole, and a status says whether it did.
 */

interface CopyButtonProps {
  value: string
  /** What is copied, for the button's accessible name: "the SHA-256 of api.example.com". */
  what: string
  /** Said once copied: "SHA-256 copied". */
  copiedNote?: string
}

export function CopyButton({ value, what, copiedNote = 'Copied' }: CopyButtonProps) {
  const [note, setNote] = useState<string | null>(null)
  const copy = () => {
    copyText(value).then(
      () => setNote(copiedNote),
      () => setNote('Could not copy: select the text and copy it'),
    )
  }
  return (
    <>
      <Button size="small" onClick={copy} aria-label={`Copy ${what}`}>
        Copy
      </Button>
      <StatusNote note={note} />
    </>
  )
}
