import type { Theme } from '../../../shared/bridge'
import { useSettingsStore } from './settings-store'

/*
 * The theme setting on <html data-theme>: "light" and "dark" pin the colour scheme, "system"
 * removes the attribute so `color-scheme: light dark` follows the OS (styles.css). Applied as
 * soon as the settings load and whenever they change (also from another window).
 */

export function applyTheme(theme: Theme | undefined, root: HTMLElement = document.documentElement) {
  if (theme === 'light' || theme === 'dark') root.dataset['theme'] = theme
  else delete root.dataset['theme']
}

/** Keeps <html data-theme> in step with the settings; returns the unsubscribe. */
export function followThemeSetting(): () => void {
  applyTheme(useSettingsStore.getState().settings?.theme)
  return useSettingsStore.subscribe((state, previous) => {
    if (state.settings?.theme !== previous.settings?.theme) applyTheme(state.settings?.theme)
  })
}
