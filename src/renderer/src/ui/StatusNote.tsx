/** A short word after an action ("Copied", "Started again", an error), announced politely. */
export function StatusNote({ note }: { note: string | null }) {
  if (note === null) return null
  return (
    <span className="muted" role="status">
      {note}
    </span>
  )
}
