/*
 * Text from a service or the activity log, made safe for a terminal. A name, id,
 * message or error detail may carry ESC[2J (clear the screen), OSC 52 (write the clipboard),
 * OSC 8 (a hidden link), OSC 0 (the window title) or a bare CR (overwrite what was printed):
 * every C0 control but tab, DEL and every C1 control (U+0080–U+009F, where CSI and OSC have
 * one-character forms) is replaced by a visible escape, so none of them reaches the terminal
 * as a control. Plain TypeScript, no Node imports: the CLI and main share it.
 */

/** C0 but tab and LF, DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are what it shows
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g
/** The same, LF kept. */
// eslint-disable-next-line no-control-regex -- control characters are what it shows
const CONTROLS_KEEPING_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

const NAMED: Readonly<Record<string, string>> = {
  '\n': '\\n',
  '\r': '\\r',
  '\u001b': '\\x1b',
}

function visible(control: string): string {
  const named = NAMED[control]
  if (named !== undefined) return named
  const code = control.charCodeAt(0)
  // C0 as \xNN; DEL and C1 as \u00NN, which is also what JSON calls them, so a JSON text
  // made visible is still the same JSON.
  return code < 0x7f
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * `text` with every control character but tab shown as an escape (`\x1b`, `\r`, `\n`, `\x07`,
 * `\u009b`). `keepNewlines` keeps LF for a block printed on purpose as several lines (never a
 * table cell, never a one-line error).
 */
export function visibleControls(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(
    options.keepNewlines === true ? CONTROLS_KEEPING_NEWLINE : CONTROLS_BUT_NEWLINE,
    visible,
  )
}

/** A notification body: some Linux notification servers render `<b>`, `<a href>`, `&amp;`. */
export function escapeNotificationMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
