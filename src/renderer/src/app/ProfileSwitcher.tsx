import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import type { Profile } from '../../../shared/bridge'
import { isConnectivityError } from '../../../shared/bridge/connectivity'
import { asBridgeError, bridge } from '../bridge'
import { Badge, ColorDot } from '../ui/Badge'
import { profileStateOf, switcherStateLabel, type ProfileState } from './profile-state'
import { selectActiveProfile, useAppStore } from './store'

/** The switcher's colour for each state (profile-switcher.css). */
const STATE_CLASSES: Record<ProfileState, string> = {
  'signed-out': 'state-out',
  unverified: 'state-offline',
  offline: 'state-offline',
  online: 'state-in',
  unchecked: 'state-in',
}
import './profile-switcher.css'

interface MenuActionProps {
  onSelect: () => void
  /** Marks a destructive action (remove). */
  danger?: boolean
  children: ReactNode
}

/** One action in the profile menu, below the profiles themselves (which are radio items). */
function MenuAction({ onSelect, danger = false, children }: MenuActionProps) {
  return (
    <button
      type="button"
      role="menuitem"
      className={danger ? 'menu-item menu-item-danger' : 'menu-item'}
      tabIndex={-1}
      onClick={onSelect}
    >
      {children}
    </button>
  )
}

/**
 * The always-visible profile switcher: the active profile (colour, name, protected, signed-in
 * state) and a menu to switch, add, edit, sign in to or remove profiles. Arrow keys move through
 * the menu, Esc closes it.
 */
export function ProfileSwitcher() {
  const profiles = useAppStore((s) => s.profiles)
  const active = useAppStore(selectActiveProfile)
  const activate = useAppStore((s) => s.activate)
  const openProfileDialog = useAppStore((s) => s.openProfileDialog)
  const requestSignIn = useAppStore((s) => s.requestSignIn)
  const addNotice = useAppStore((s) => s.addNotice)
  const connectivity = useAppStore((s) => s.connectivity)
  // The Overview's State column says the same, from the same account (profile-state.ts).
  const stateOf = (profile: Profile) => profileStateOf(profile, connectivity[profile.id])
  const labelOf = (profile: Profile) => switcherStateLabel(profile, stateOf(profile))
  const [open, setOpen] = useState(false)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    // Focus starts on the active profile, so Enter keeps it and the arrows move from there.
    const menu = menuRef.current
    const start =
      menu?.querySelector<HTMLElement>('[aria-checked="true"]') ??
      menu?.querySelector<HTMLElement>('[role^="menuitem"]')
    start?.focus()
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  function close(refocus = true) {
    setOpen(false)
    if (refocus) buttonRef.current?.focus()
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])]
    const index = items.indexOf(document.activeElement as HTMLElement)
    const move = (to: number) => items[(to + items.length) % items.length]?.focus()
    if (event.key === 'ArrowDown') move(index + 1)
    else if (event.key === 'ArrowUp') move(index - 1)
    else if (event.key === 'Home') move(0)
    else if (event.key === 'End') move(items.length - 1)
    else if (event.key === 'Escape' || event.key === 'Tab') {
      close(event.key === 'Escape')
      if (event.key === 'Tab') return
    } else return
    event.preventDefault()
  }

  /**
   * Runs a menu action. Every action opens a dialog, which takes the focus, so the menu closes
   * without handing the focus back to the switcher button.
   */
  function choose(action: () => void) {
    close(false)
    action()
  }

  async function switchTo(profile: Profile) {
    close()
    if (profile.id === active?.id) return
    try {
      await activate(profile.id)
    } catch (error) {
      addNotice({
        id: `activate-${profile.id}`,
        level: 'error',
        message: `Could not switch to ${profile.name}: ${asBridgeError(error).message}`,
      })
    }
  }

  /** Checks the token of a profile saved unchecked; says what came of it either way. */
  async function connect(profile: Profile) {
    try {
      await bridge.call('profiles.connect', { id: profile.id })
      addNotice({
        id: `connect-${profile.id}`,
        level: 'info',
        message: `Connected to ${profile.name}: its token is verified.`,
      })
    } catch (error) {
      const problem = asBridgeError(error)
      addNotice({
        id: `connect-${profile.id}`,
        level: isConnectivityError(problem) ? 'warning' : 'error',
        message: `Could not connect to ${profile.name}: ${problem.code} — ${problem.message}`,
      })
    }
  }

  return (
    <div className="switcher">
      <div className="switcher-caption" aria-hidden="true">
        Profile
      </div>
      <button
        ref={buttonRef}
        type="button"
        className="switcher-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        {/* The name is the visible text plus a few hidden words, in reading order (axe's
            label-content-name-mismatch: speech users say what they see). */}
        {active ? (
          <>
            <span className="switcher-name">
              <ColorDot color={active.color} />
              <span className="visually-hidden">Profile: </span>
              <span className="truncate" title={active.name}>
                {active.name}
              </span>
              <span className="visually-hidden">, </span>
            </span>
            <span className="switcher-state">
              <span className={STATE_CLASSES[stateOf(active)]}>{labelOf(active)}</span>
              {active.protected ? (
                <>
                  <span className="visually-hidden">, </span>
                  <Badge tone="danger">Protected</Badge>
                </>
              ) : null}
              <span className="visually-hidden">. Switch profile</span>
            </span>
          </>
        ) : (
          <span className="switcher-name">
            <span className="visually-hidden">No profile selected. </span>Choose a profile
          </span>
        )}
        <span className="switcher-chevron" aria-hidden="true">
          ▾
        </span>
      </button>

      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          className="menu"
          role="menu"
          aria-label="Profiles"
          onKeyDown={onMenuKeyDown}
        >
          {profiles.map((profile) => (
            <button
              key={profile.id}
              type="button"
              role="menuitemradio"
              aria-checked={profile.id === active?.id}
              className="menu-item"
              tabIndex={-1}
              onClick={() => void switchTo(profile)}
            >
              <ColorDot color={profile.color} />
              <span className="menu-item-text">
                <span className="truncate">{profile.name}</span>
                <span className="menu-item-sub">
                  {profile.kind === 'sandbox' ? 'Local sandbox' : profile.baseUrl} ·{' '}
                  {labelOf(profile)}
                </span>
              </span>
              {profile.protected ? <Badge tone="danger">Protected</Badge> : null}
            </button>
          ))}
          <div className="menu-separator" role="separator" />
          <MenuAction onSelect={() => choose(() => openProfileDialog({ kind: 'add' }))}>
            Add profile…
          </MenuAction>
          {active ? (
            <>
              {active.signedIn && active.unverified === true ? (
                <MenuAction onSelect={() => choose(() => void connect(active))}>
                  Connect to {active.name}
                </MenuAction>
              ) : null}
              {!active.signedIn ? (
                <MenuAction
                  onSelect={() =>
                    choose(() =>
                      requestSignIn({
                        profileId: active.id,
                        message: `${active.name} is signed out.`,
                      }),
                    )
                  }
                >
                  Sign in to {active.name}…
                </MenuAction>
              ) : null}
              <MenuAction
                onSelect={() =>
                  choose(() => openProfileDialog({ kind: 'edit', profileId: active.id }))
                }
              >
                Edit {active.name}…
              </MenuAction>
              <MenuAction
                danger
                onSelect={() =>
                  choose(() => openProfileDialog({ kind: 'remove', profileId: active.id }))
                }
              >
                Remove {active.name}…
              </MenuAction>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
