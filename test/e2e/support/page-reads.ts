import type { Locator, Page } from '@playwright/test'

/*
 * Reading what the page shows beyond its text: the clipboard, and how many lines a box takes.
 */

/** What the page's clipboard holds (the context needs clipboard-read). */
export async function clipboardText(page: Page): Promise<string> {
  return page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  )
}

/** Lines of text a box holds, from its height and its line height. */
export async function linesOf(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const style = element.ownerDocument.defaultView?.getComputedStyle(element)
    const lineHeight = parseFloat(style?.lineHeight ?? '')
    return Math.round(element.getBoundingClientRect().height / lineHeight)
  })
}
