import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { AppLocation } from '../../src/main/shell/app-url'
import { senderIsOurs } from '../../src/main/shell/sender-check'
import type { SenderFacts, SenderFrame } from '../../src/main/shell/sender-check'

/*
 * The bridge's IPC sender check with plain objects, the facts shell/ipc.ts reads off Electron's
 * event and window: only the top frame of our own window, showing our own page, gets through.
 * Each refusal changes one fact of an accepted call, so every condition of the check is needed.
 */

const INDEX_HTML = path.resolve('/opt/Infradesk/resources/app/out/renderer/index.html')
const FILE: AppLocation = { kind: 'file', indexHtml: INDEX_HTML }
const DEV: AppLocation = { kind: 'dev-server', url: 'http://localhost:5173/' }
const OUR_PAGE = pathToFileURL(INDEX_HTML).href
const MAIN_FRAME = { processId: 7, routingId: 1 }

/** A call from our window's top frame showing `url`; `frame` and `facts` change one thing. */
function call(
  url: string = OUR_PAGE,
  frame: Partial<SenderFrame> = {},
  facts: Partial<SenderFacts> = {},
): SenderFacts {
  return {
    frame: { url, ...MAIN_FRAME, isTopFrame: true, ...frame },
    fromOurWindow: true,
    mainFrame: MAIN_FRAME,
    ...facts,
  }
}

describe('senderIsOurs accepts', () => {
  it('the top frame of our window showing our page (packaged: the index.html file)', () => {
    expect(senderIsOurs(FILE, call())).toBe(true)
    expect(senderIsOurs(FILE, call(`${OUR_PAGE}#/certificates`))).toBe(true)
  })

  it('the top frame of our window showing the dev server', () => {
    expect(senderIsOurs(DEV, call('http://localhost:5173/#/sql'))).toBe(true)
  })
})

describe('senderIsOurs refuses', () => {
  it('a subframe of our window, even showing our page with the top frame’s ids', () => {
    expect(senderIsOurs(FILE, call(OUR_PAGE, { isTopFrame: false }))).toBe(false)
  })

  it('a frame that is not our window’s top frame (another routing id or process)', () => {
    expect(senderIsOurs(FILE, call(OUR_PAGE, { routingId: 2 }))).toBe(false)
    expect(senderIsOurs(FILE, call(OUR_PAGE, { processId: 8 }))).toBe(false)
  })

  it('a foreign page in our window (navigated away, or a lookalike of our page)', () => {
    expect(senderIsOurs(FILE, call('https://evil.test/'))).toBe(false)
    expect(senderIsOurs(FILE, call(pathToFileURL('/tmp/index.html').href))).toBe(false)
    expect(senderIsOurs(FILE, call(`${OUR_PAGE}/../../../../../../etc/passwd`))).toBe(false)
    expect(senderIsOurs(DEV, call('http://localhost:5173.evil.test/'))).toBe(false)
    expect(senderIsOurs(DEV, call('http://localhost:5174/'))).toBe(false)
    expect(senderIsOurs(DEV, call('not a url'))).toBe(false)
  })

  it('another window, even with the same ids and our page', () => {
    expect(senderIsOurs(FILE, call(OUR_PAGE, {}, { fromOurWindow: false }))).toBe(false)
  })

  it('any call while no window is open, or when the frame is gone', () => {
    expect(senderIsOurs(FILE, call(OUR_PAGE, {}, { mainFrame: null }))).toBe(false)
    expect(senderIsOurs(FILE, call(OUR_PAGE, {}, { frame: null }))).toBe(false)
  })
})
