import type { KeyboardEvent } from 'react'

/*
 * A modal <dialog> makes the page behind it inert, but Tab from its last control still leaves
 * for the browser's own toolbar. Dialogs call this from onKeyDown so Tab and Shift+Tab cycle
 * within them, as a desktop app's dialogs do.
 */

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',')

/** The elements Tab stops at inside `container`, in order (radios of a group count once). */
export function tabStops(container: HTMLElement): HTMLElement[] {
  const seenGroups = new Set<string>()
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => {
    if (element.closest('[inert]') || element.getClientRects().length === 0) return false
    if (element instanceof HTMLInputElement && element.type === 'radio' && element.name) {
      // Tab enters a radio group once, on its checked radio (or the first one).
      const group = [...container.querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter(
        (radio) => radio.name === element.name,
      )
      const stop = group.find((radio) => radio.checked) ?? group[0]
      if (stop !== element || seenGroups.has(element.name)) return false
      seenGroups.add(element.name)
    }
    return true
  })
}

/** Keeps Tab inside `container`: from the last stop to the first, and back with Shift. */
export function trapTab(event: KeyboardEvent, container: HTMLElement | null): void {
  if (event.key !== 'Tab' || !container) return
  const stops = tabStops(container)
  const first = stops[0]
  const last = stops.at(-1)
  if (!first || !last) return
  const active = document.activeElement
  if (event.shiftKey && (active === first || !container.contains(active))) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault()
    first.focus()
  }
}
