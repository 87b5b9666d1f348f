import { isAppUrl } from './app-url'
import type { AppLocation } from './app-url'

/*
 * The IPC sender check as a pure function of plain data, so that it is tested with plain objects
 * (test/main/sender-check.test.ts) and needs no Electron: shell/ipc.ts reads these facts off the
 * event and the window, and asks here.
 */

/** A frame as the check needs it: where it is, which frame it is, and whether it is on top. */
export interface SenderFrame {
  url: string
  processId: number
  routingId: number
  /** True for a window's top frame (Electron: `frame.parent === null`), false in an iframe. */
  isTopFrame: boolean
}

/** What is known about one call's sender. */
export interface SenderFacts {
  /** The frame that sent the call; null when Electron no longer has it (gone, navigated). */
  frame: SenderFrame | null
  /** Whether the call came from our window's web contents (false when no window is open). */
  fromOurWindow: boolean
  /** Our window's top frame, by its ids; null when no window is open. */
  mainFrame: { processId: number; routingId: number } | null
}

/**
 * Whether a call comes from the top frame of our own window showing our own page. Frames are
 * compared by their process and routing ids, not by object identity, which Electron does not
 * promise for WebFrameMain; a frame that is not on top (an iframe) is refused even when its ids
 * would match, and so is any page that is not ours (`isAppUrl`).
 */
export function senderIsOurs(location: AppLocation, sender: SenderFacts): boolean {
  const { frame, mainFrame } = sender
  if (!sender.fromOurWindow || !frame || !mainFrame) return false
  if (!frame.isTopFrame) return false
  if (frame.processId !== mainFrame.processId || frame.routingId !== mainFrame.routingId) {
    return false
  }
  return isAppUrl(location, frame.url)
}
