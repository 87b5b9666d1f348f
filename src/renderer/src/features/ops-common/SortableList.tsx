import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core'
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import type { ReactNode } from 'react'
import { Button } from '../../ui/Button'
import './sortable.css'

/*
 * A list reordered by drag and drop (pointer) and by the keyboard (@dnd-kit's keyboard sensor:
 * Space picks an item up, the arrow keys move it, Space drops it, Esc cancels), with Move up /
 * Move down buttons as a plain alternative. The owner holds the order.
 */

export interface SortableEntry {
  id: string
  label: string
  /** A second line (the id, a folder name). */
  detail?: ReactNode
}

interface SortableListProps {
  /** The list's accessible name. */
  label: string
  entries: SortableEntry[]
  onReorder: (ids: string[]) => void
  onRemove?: (id: string) => void
  disabled?: boolean
}

function labelOf(entries: SortableEntry[], id: unknown): string {
  return entries.find((entry) => entry.id === id)?.label ?? String(id)
}

export function SortableList({
  label,
  entries,
  onReorder,
  onRemove,
  disabled = false,
}: SortableListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )
  const ids = entries.map((entry) => entry.id)

  function move(from: number, to: number) {
    if (to < 0 || to >= ids.length || from === to) return
    onReorder(arrayMove(ids, from, to))
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return
    move(ids.indexOf(String(active.id)), ids.indexOf(String(over.id)))
  }

  const position = (id: unknown) => ids.indexOf(String(id)) + 1
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: {
          draggable:
            'To move an item, press Space. Use the up and down arrow keys to move it, Space again to drop it in its new place, or Escape to cancel.',
        },
        announcements: {
          onDragStart: ({ active }) =>
            `Picked up ${labelOf(entries, active.id)}, position ${position(active.id)} of ${ids.length}.`,
          onDragOver: ({ active, over }) =>
            over
              ? `${labelOf(entries, active.id)} is over position ${position(over.id)} of ${ids.length}.`
              : `${labelOf(entries, active.id)} is not over a position.`,
          onDragEnd: ({ active, over }) =>
            over
              ? `${labelOf(entries, active.id)} dropped at position ${position(over.id)} of ${ids.length}.`
              : `${labelOf(entries, active.id)} dropped.`,
          onDragCancel: ({ active }) =>
            `Moving ${labelOf(entries, active.id)} was cancelled; it stays at position ${position(active.id)}.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={disabled}>
        <ol className="sortable-list" aria-label={label}>
          {entries.map((entry, index) => (
            <SortableRow
              key={entry.id}
              entry={entry}
              index={index}
              count={entries.length}
              disabled={disabled}
              onMove={(to) => move(index, to)}
              onRemove={onRemove ? () => onRemove(entry.id) : undefined}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  )
}

function SortableRow({
  entry,
  index,
  count,
  disabled,
  onMove,
  onRemove,
}: {
  entry: SortableEntry
  index: number
  count: number
  disabled: boolean
  onMove: (to: number) => void
  onRemove: (() => void) | undefined
}) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id: entry.id, disabled })
  return (
    <li
      ref={setNodeRef}
      className={`sortable-row${isDragging ? ' sortable-row-dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      aria-label={entry.label}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="sortable-handle"
        {...attributes}
        {...listeners}
        aria-label={`Drag ${entry.label} (position ${index + 1} of ${count})`}
        disabled={disabled}
      >
        <span aria-hidden="true">⠿</span>
      </button>
      <span className="sortable-position" aria-hidden="true">
        {index + 1}
      </span>
      <span className="sortable-text">
        <span className="sortable-label">{entry.label}</span>
        {entry.detail ? <span className="sortable-detail">{entry.detail}</span> : null}
      </span>
      <span className="sortable-actions">
        <Button
          size="small"
          variant="ghost"
          onClick={() => onMove(index - 1)}
          disabled={disabled || index === 0}
          aria-label={`Move ${entry.label} up`}
        >
          ↑
        </Button>
        <Button
          size="small"
          variant="ghost"
          onClick={() => onMove(index + 1)}
          disabled={disabled || index === count - 1}
          aria-label={`Move ${entry.label} down`}
        >
          ↓
        </Button>
        {onRemove ? (
          <Button
            size="small"
            variant="ghost"
            onClick={onRemove}
            disabled={disabled}
            aria-label={`Remove ${entry.label} from the list`}
          >
            ×
          </Button>
        ) : null}
      </span>
    </li>
  )
}
