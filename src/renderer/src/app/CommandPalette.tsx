import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { trapTab } from '../ui/focus-trap'
import { useModalDialog } from '../ui/useModalDialog'
import { bridge } from '../bridge'
import { openForProfile } from '../features/overview/store'
import {
  certificateMatches,
  paletteGroups,
  searchPalette,
  type PaletteMatch,
} from './palette-entries'
import {
  lookupKey,
  namedMatches,
  namedRequests,
  unknownNameNote,
  withNamedMatches,
} from './palette-names'
import type { KnownObject } from '../../../shared/bridge/channels/known-objects'
import { useAppStore } from './store'
import './palette.css'

/*
 * Ctrl/Cmd+K: every screen and every operation, searchable by name. A modal <dialog> (focus
 * trapped, Esc closes, focus goes back where it was) holding the ARIA combobox pattern: the
 * input keeps the focus while the arrow keys move the active option, Enter opens it.
 */

interface CommandPaletteProps {
  open: boolean
  onClose(): void
}

export function CommandPalette({ open, onClose }: CommandPaletteProps) {
  return open ? <OpenPalette onClose={onClose} /> : null
}

function OpenPalette({ onClose }: { onClose(): void }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const route = useAppStore((s) => s.route)
  const routeParams = useAppStore((s) => s.routeParams)
  const navigate = useAppStore((s) => s.navigate)
  const [query, setQuery] = useState('')
  // null: the first entry (the best match) is active, until the user moves with the arrow keys.
  const [active, setActive] = useState<number | null>(null)
  const baseId = useId()
  const titleId = `${baseId}-title`
  const listId = `${baseId}-list`

  const profiles = useAppStore((s) => s.profiles)
  const activeId = useAppStore((s) => s.activeId)
  const found = useCertificateSearch(query)
  const named = useNamedObjects(query, activeId)
  const matches = useMemo(
    () => searchPalette(query, { route, params: routeParams }),
    [query, route, routeParams],
  )
  // Options in the order they are shown, the best match first (its group leads); certificates
  // found in every profile's cache after the screens and operations.
  const ordered = useMemo(
    () => [
      ...withNamedMatches(matches, named),
      ...certificateMatches(found, new Map(profiles.map((profile) => [profile.id, profile.name]))),
    ],
    [named, matches, found, profiles],
  )
  const groups = paletteGroups(ordered)
  const unknownNote = unknownNameNote(ordered)
  const activeIndex = Math.min(active ?? 0, Math.max(ordered.length - 1, 0))
  const optionId = (index: number) => `${baseId}-option-${index}`

  useModalDialog(dialogRef, () => inputRef.current)

  useEffect(() => {
    listRef.current
      ?.querySelector(`[id="${optionId(activeIndex)}"]`)
      ?.scrollIntoView({ block: 'nearest' })
    // optionId is derived from baseId, which never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex])

  function choose(match: PaletteMatch | undefined) {
    if (!match) return
    onClose()
    if (match.entry.kind === 'certificate') {
      void openForProfile(match.entry.profileId, match.entry.route, match.params)
    } else navigate(match.entry.route, match.params)
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const last = ordered.length - 1
    if (event.key === 'ArrowDown') setActive(activeIndex >= last ? 0 : activeIndex + 1)
    else if (event.key === 'ArrowUp') setActive(activeIndex <= 0 ? last : activeIndex - 1)
    else if (event.key === 'Home' && event.ctrlKey) setActive(0)
    else if (event.key === 'End' && event.ctrlKey) setActive(last)
    else if (event.key === 'Enter') choose(ordered[activeIndex])
    else return
    event.preventDefault()
  }

  const renderGroup = (label: string, items: PaletteMatch[], offset: number) =>
    items.length === 0 ? null : (
      <div key={label} role="group" aria-label={label} className="palette-group">
        <div className="palette-group-label" aria-hidden="true">
          {label}
        </div>
        {items.map((match, index) => {
          const position = offset + index
          const { entry } = match
          return (
            <div
              key={entry.key}
              id={optionId(position)}
              role="option"
              aria-selected={position === activeIndex}
              data-entry={entry.key}
              className="palette-option"
              onMouseMove={() => position !== activeIndex && setActive(position)}
              onClick={() => choose(match)}
            >
              <span className="palette-option-title">{entry.title}</span>
              <span className="palette-option-detail">{entry.detail}</span>
            </div>
          )
        })}
      </div>
    )

  return (
    <dialog
      ref={dialogRef}
      className="dialog palette"
      aria-labelledby={titleId}
      onKeyDown={(event) => trapTab(event, dialogRef.current)}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === dialogRef.current) onClose()
      }}
    >
      <h2 id={titleId} className="visually-hidden">
        Command palette
      </h2>
      <input
        ref={inputRef}
        className="palette-input"
        role="combobox"
        aria-label="Search screens and operations"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={ordered.length > 0 ? optionId(activeIndex) : undefined}
        placeholder="Search screens and operations… (add an id or a name to act on it)"
        value={query}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => {
          setQuery(event.target.value)
          setActive(null)
        }}
        onKeyDown={onKeyDown}
      />
      <div
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label="Screens and operations"
        className="palette-list"
      >
        {groups.map((group) => renderGroup(group.label, group.items, group.offset))}
      </div>
      {ordered.length === 0 ? (
        <div className="palette-empty" role="status">
          Nothing matches “{query}”
        </div>
      ) : unknownNote !== null ? (
        <div className="palette-note" role="status">
          {unknownNote}
        </div>
      ) : null}
      <div className="palette-help" aria-hidden="true">
        <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to open · <kbd>Esc</kbd> to close
      </div>
    </dialog>
  )
}

const NOTHING_NAMED: PaletteMatch[] = []

/**
 * "<operation words> <name>": the name looked up among the objects the app
 * has seen on the active profile, one `knownObjects.search` per kind and name, once typing
 * pauses; an answer for an older query is dropped. A failed lookup is left out, as one not
 * answered yet is: it finds nothing, and does not say the name is unknown either.
 */
function useNamedObjects(query: string, profileId: string | null): PaletteMatch[] {
  const requests = useMemo(() => namedRequests(query), [query])
  const [found, setFound] = useState<{ query: string; objects: Map<string, KnownObject[]> }>({
    query: '',
    objects: new Map(),
  })
  useEffect(() => {
    if (profileId === null || requests.length === 0) return
    let current = true
    const lookups = new Map(
      requests.map((request) => [
        lookupKey(request.target.kind, request.name),
        { kind: request.target.kind, text: request.name },
      ]),
    )
    const timer = setTimeout(() => {
      void Promise.all(
        [...lookups].map(async ([key, { kind, text }]) => {
          const objects = await bridge
            .call('knownObjects.search', { profileId, kind, text, limit: 20 })
            .catch(() => null)
          return objects === null ? [] : [[key, objects] as const]
        }),
      ).then((answered) => {
        if (current) setFound({ query, objects: new Map(answered.flat()) })
      })
    }, 120)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [query, requests, profileId])
  return useMemo(
    () =>
      requests.length === 0
        ? NOTHING_NAMED
        : namedMatches(requests, found.query === query ? found.objects : new Map()),
    [requests, found, query],
  )
}

type FoundCertificates = Parameters<typeof certificateMatches>[0]
const NOTHING_FOUND: FoundCertificates = []

/**
 * Certificates whose name holds the query, in every profile's cache: asked once
 * typing pauses, from two characters on; an answer for an older query is dropped.
 */
function useCertificateSearch(query: string): FoundCertificates {
  const [found, setFound] = useState<{ query: string; items: FoundCertificates }>({
    query: '',
    items: NOTHING_FOUND,
  })
  const text = query.trim()
  useEffect(() => {
    if (text.length < 2) return
    let current = true
    const timer = setTimeout(() => {
      bridge
        .call('overview.searchCertificates', { query: text, limit: 20 })
        .then((items) => {
          if (current) setFound({ query: text, items })
        })
        // The palette still offers screens and operations; a failed search finds nothing.
        .catch(() => {
          if (current) setFound({ query: text, items: NOTHING_FOUND })
        })
    }, 120)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [text])
  return found.query === text && text.length >= 2 ? found.items : NOTHING_FOUND
}
