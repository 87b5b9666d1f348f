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
  const copy = () => copyWithNote(value, setNote, copiedNote, 'text')
  return (
    <>
      <Button size="small" onClick={copy} aria-label={`Copy ${what}`}>
        Copy
      </Button>
      <StatusNote note={note} />
    </>
  )
}

/**
 * Copies `value`, then says through `say` that it did ("Path copied"), or, where the clipboard
 * is out of reach, that the user can select the `thing` ("path") and copy it by hand.
 */
export function copyWithNote(
  value: string,
  say: (note: string) => void,
  copied: string,
  thing: string,
): void {
  copyText(value).then(
    () => say(copied),
    () => say(`Could not copy: select the ${thing} and copy it`),
  )
}
