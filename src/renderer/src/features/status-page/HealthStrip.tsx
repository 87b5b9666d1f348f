import { useId, useRef, useState, type KeyboardEvent } from 'react'
import type { HealthSlot, StatusLevel } from '../../../../shared/status-page'
import { formatLocalFull } from '../../lib/time'
import { MoreFields } from '../sessions/ExtraFields'

/*
 * A service's health history drawn as public status pages draw it: one small bar per time slot,
 * oldest on the left, coloured by its status; a slow answer marked above its bar. The strip is
 * one stop of the Tab key; the arrow keys (Home, End) move along its slots, each with a tooltip
 * saying when and what. The numbers are text too: counts beneath, every slot in a table.
 */

const BAR = 3
const GAP = 1
const HEIGHT = 28
const MARK = 4

const SLOT_WORDS: Record<StatusLevel, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  partial_outage: 'Partial outage',
  major_outage: 'Outage',
  maintenance: 'Maintenance',
  unknown: 'Unknown (no data)',
}

/** Our word for a slot's status; the service's own word when we do not know it. */
export function slotStatusWords(slot: HealthSlot): string {
  if (slot.status.level !== null) return SLOT_WORDS[slot.status.level]
  return slot.status.text === null ? 'Not stated' : slot.status.text.replace(/_/g, ' ')
}

function slotText(slot: HealthSlot): string {
  const at = slot.at === null ? 'Time not stated' : formatLocalFull(slot.at)
  return `${at}: ${slotStatusWords(slot)}${slot.slow ? ', slow' : ''}`
}

/** "170 operational, 12 degraded, 4 unknown (no data); 9 slow" */
export function slotCounts(slots: readonly HealthSlot[]): string {
  const counts = new Map<string, number>()
  for (const slot of slots) {
    const word = slotStatusWords(slot).toLowerCase()
    counts.set(word, (counts.get(word) ?? 0) + 1)
  }
  const slow = slots.filter((slot) => slot.slow).length
  const parts = [...counts.entries()].map(([word, count]) => `${count} ${word}`)
  return `${parts.join(', ')}; ${slow} slow`
}

function SlotTable({ slots, name }: { slots: readonly HealthSlot[]; name: string }) {
  return (
    <table className="health-table" aria-label={`Health checks of ${name}`}>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Status</th>
          <th scope="col">Slow</th>
          <th scope="col">Other fields</th>
        </tr>
      </thead>
      <tbody>
        {slots.map((slot, index) => (
          <tr key={index}>
            <td>
              {slot.at === null ? <span className="muted">—</span> : formatLocalFull(slot.at)}
            </td>
            <td>{slotStatusWords(slot)}</td>
            <td>{slot.slow ? 'slow' : ''}</td>
            <td>{slot.extras.length > 0 ? <MoreFields extras={slot.extras} /> : null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function HealthStrip({ name, slots }: { name: string; slots: readonly HealthSlot[] }) {
  const [active, setActive] = useState(slots.length - 1)
  const [shown, setShown] = useState<number | null>(null)
  const [tableOpen, setTableOpen] = useState(false)
  const bars = useRef<(SVGRectElement | null)[]>([])
  const tooltipId = useId()
  if (slots.length === 0) return null

  const current = Math.min(Math.max(active, 0), slots.length - 1)
  const width = slots.length * (BAR + GAP) - GAP
  const first = slots[0]?.at ?? null
  const last = slots.at(-1)?.at ?? null
  const span =
    first !== null && last !== null
      ? ` from ${formatLocalFull(first)} to ${formatLocalFull(last)}`
      : ''

  function move(to: number) {
    const next = Math.min(Math.max(to, 0), slots.length - 1)
    setActive(next)
    setShown(next)
    bars.current[next]?.focus()
  }

  function onKeyDown(event: KeyboardEvent<SVGSVGElement>) {
    const steps: Record<string, number> = {
      ArrowLeft: current - 1,
      ArrowRight: current + 1,
      Home: 0,
      End: slots.length - 1,
      PageUp: current - 12,
      PageDown: current + 12,
    }
    const to = steps[event.key]
    if (to === undefined) return
    event.preventDefault()
    move(to)
  }

  const tip = shown === null ? null : slots[shown]
  return (
    <div className="health-strip">
      <div className="health-strip-bars">
        <svg
          role="group"
          aria-label={`Health history of ${name}: ${slots.length} checks${span}. Arrow keys move between checks.`}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          preserveAspectRatio="none"
          onKeyDown={onKeyDown}
          onMouseLeave={() => setShown(null)}
        >
          {slots.map((slot, index) => (
            <g key={index}>
              <rect
                ref={(element) => {
                  bars.current[index] = element
                }}
                className={`health-slot health-${slot.status.level ?? 'unread'}`}
                x={index * (BAR + GAP)}
                y={MARK + 1}
                width={BAR}
                height={HEIGHT - MARK - 1}
                role="img"
                aria-label={slotText(slot)}
                aria-describedby={shown === index ? tooltipId : undefined}
                tabIndex={index === current ? 0 : -1}
                onFocus={() => {
                  setActive(index)
                  setShown(index)
                }}
                onBlur={() => setShown(null)}
                onMouseEnter={() => setShown(index)}
              />
              {slot.slow ? (
                <rect
                  className="health-slow-mark"
                  x={index * (BAR + GAP)}
                  y={0}
                  width={BAR}
                  height={MARK}
                  aria-hidden="true"
                />
              ) : null}
            </g>
          ))}
        </svg>
        {tip ? (
          <div
            id={tooltipId}
            role="tooltip"
            className="health-tooltip"
            // Kept inside the strip at either end.
            style={{
              left: `clamp(9rem, ${((shown ?? 0) + 0.5) * (100 / slots.length)}%, calc(100% - 9rem))`,
            }}
          >
            {slotText(tip)}
          </div>
        ) : null}
      </div>
      <div className="health-strip-legend muted">
        <span>{first === null ? 'Oldest' : formatLocalFull(first)}</span>
        <span aria-label={`Counts for ${name}`}>{slotCounts(slots)}</span>
        <span>{last === null ? 'Newest' : formatLocalFull(last)}</span>
      </div>
      <details
        className="health-details"
        onToggle={(event) => setTableOpen((event.target as HTMLDetailsElement).open)}
      >
        <summary>Each check of {name} as text</summary>
        {tableOpen ? <SlotTable slots={slots} name={name} /> : null}
      </details>
    </div>
  )
}
