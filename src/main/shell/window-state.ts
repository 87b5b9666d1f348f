import { readFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { makePrivateFolder } from '../data-folder'
import { writeFileAtomicSync } from '../transfers/atomic-file'

/** The main window's size and place, kept in `<userData>/window-state.json` between runs. */
export const windowStateSchema = z.object({
  x: z.int().optional(),
  y: z.int().optional(),
  width: z.int().min(400).max(20_000),
  height: z.int().min(300).max(20_000),
  maximized: z.boolean().default(false),
})
export type WindowState = z.infer<typeof windowStateSchema>

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, maximized: false }

export function windowStateFile(userDataDir: string): string {
  return path.join(userDataDir, 'window-state.json')
}

/** A missing or damaged file is not an error: the window opens at its default size. */
export function loadWindowState(file: string): WindowState {
  try {
    const parsed = windowStateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : DEFAULT_WINDOW_STATE
  } catch {
    return DEFAULT_WINDOW_STATE
  }
}

/**
 * Written to a temp file and renamed, so a crash mid-write leaves the previous state; 0600 like
 * every file of the data folder (src/main/data-folder.ts).
 */
export function saveWindowState(file: string, state: WindowState): void {
  makePrivateFolder(path.dirname(file))
  writeFileAtomicSync(file, JSON.stringify(state, null, 2))
}

interface Rectangle {
  x: number
  y: number
  width: number
  height: number
}

/**
 * Keeps a remembered position only if it still overlaps a display (a monitor may have been
 * unplugged since); otherwise the window is centred by dropping x and y.
 */
export function placeOnScreen(state: WindowState, workAreas: Rectangle[]): WindowState {
  if (state.x === undefined || state.y === undefined) return state
  const { x, y } = state
  const visible = workAreas.some(
    (area) =>
      x < area.x + area.width - 50 &&
      x + state.width > area.x + 50 &&
      y >= area.y - 10 &&
      y < area.y + area.height - 50,
  )
  return visible ? state : { width: state.width, height: state.height, maximized: state.maximized }
}
