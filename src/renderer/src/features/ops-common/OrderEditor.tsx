import { useState } from 'react'
import { z } from 'zod'
import type { OrderedItem } from '../../../../shared/bridge/channels/operations'
import type { KnownIds } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { checkOne } from '../../lib/schema-form'
import { IdField } from './IdField'
import { SortableList } from './SortableList'

/*
 * The list of ids to reorder (ops 9 and 11 take `items` of UUIDs with their sortOrder): names
 * come from the last answer the app kept, ids can be added by hand, and the order is changed by
 * drag and drop or the keyboard.
 */

const itemId = z.uuid()

interface OrderEditorProps {
  /** The list's accessible name, e.g. "Environments of the folder". */
  label: string
  ids: string[]
  onChange: (ids: string[]) => void
  /** What the app knows of each id (name, folder), from the last answer. */
  known: Map<string, OrderedItem>
  suggestions: readonly string[]
  /** Names of ids the last answer did not carry, and which id a pasted link gives. */
  knownIds?: KnownIds | undefined
  addLabel: string
  disabled?: boolean
}

export function OrderEditor({
  label,
  ids,
  onChange,
  known,
  suggestions,
  knownIds,
  addLabel,
  disabled = false,
}: OrderEditorProps) {
  const [adding, setAdding] = useState('')
  const [tried, setTried] = useState(false)
  const addError =
    adding === '' && !tried
      ? undefined
      : (checkOne(itemId, adding) ?? (ids.includes(adding) ? 'Already in the list' : undefined))

  /** Adds the typed id when it is valid; otherwise its error shows, even for an empty field. */
  function add() {
    setTried(true)
    if (addError !== undefined || adding === '') return
    onChange([...ids, adding])
    setAdding('')
    setTried(false)
  }

  return (
    <div className="op-section">
      {ids.length === 0 ? (
        <p className="muted">No items yet: add their ids below.</p>
      ) : (
        <SortableList
          label={label}
          disabled={disabled}
          entries={ids.map((id) => {
            const name = known.get(id)?.name ?? knownIds?.names.get(id)
            return { id, label: name ?? id, detail: name ? id : undefined }
          })}
          onReorder={onChange}
          onRemove={(id) => onChange(ids.filter((item) => item !== id))}
        />
      )}
      <div className="op-form-row">
        <IdField
          label={addLabel}
          value={adding}
          onChange={setAdding}
          error={addError}
          disabled={disabled}
          suggestions={suggestions.filter((value) => !ids.includes(value))}
          {...(knownIds ? { known: knownIds } : {})}
          onEnter={add}
        />
        <div className="op-form-actions op-add">
          <Button size="small" disabled={disabled} onClick={add}>
            Add to the list
          </Button>
        </div>
      </div>
    </div>
  )
}
