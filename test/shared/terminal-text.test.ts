import { describe, expect, it } from 'vitest'
import { escapeNotificationMarkup, visibleControls } from '../../src/shared/terminal-text'

/*
 * Text from a service made safe for a terminal: ESC[2J, OSC 52, OSC 8, OSC 0, a
 * bare CR, DEL and the C1 forms of CSI/OSC come out as visible escapes, tab stays.
 */

/** Any byte a terminal acts on: C0 but tab and LF, DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

describe('visibleControls', () => {
  it('shows ESC[2J, OSC 52, OSC 8, OSC 0 and a bare CR instead of sending them', () => {
    const hostile =
      'a\u001b[2Jb\u001b]52;c;ZXZpbA==\u0007c\u001b]8;;https://evil/\u001b\\d\u001b]0;title\u0007e\rf'
    const shown = visibleControls(hostile)
    expect(shown).toBe(
      'a\\x1b[2Jb\\x1b]52;c;ZXZpbA==\\x07c\\x1b]8;;https://evil/\\x1b\\d\\x1b]0;title\\x07e\\rf',
    )
    expect(shown).not.toMatch(ACTING)
  })

  it('shows DEL and every C1 control, keeps tab and ordinary text', () => {
    expect(visibleControls('\u009b2J\u009d0;t\u009c\u007f\u0080')).toBe(
      '\\u009b2J\\u009d0;t\\u009c\\u007f\\u0080',
    )
    expect(visibleControls('a\tb — ünïcödé 证书 \u00a0')).toBe('a\tb — ünïcödé 证书 \u00a0')
    for (let code = 0; code <= 0x9f; code += 1) {
      const shown = visibleControls(String.fromCharCode(code))
      if (code !== 0x09) expect(shown, `U+${code.toString(16)}`).not.toMatch(ACTING)
    }
  })

  it('keeps LF only where a block is printed as lines on purpose', () => {
    expect(visibleControls('one\ntwo')).toBe('one\\ntwo')
    expect(visibleControls('one\ntwo\r', { keepNewlines: true })).toBe('one\ntwo\\r')
  })
})

describe('escapeNotificationMarkup', () => {
  it('escapes <, > and & so a notification server shows them as text', () => {
    expect(escapeNotificationMarkup('<a href="x">A&B</a>')).toBe(
      '&lt;a href="x"&gt;A&amp;B&lt;/a&gt;',
    )
  })
})
