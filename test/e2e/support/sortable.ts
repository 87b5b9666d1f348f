import { expect, type Locator, type Page } from '@playwright/test'

/*
 * Reordering a @dnd-kit list as a user does: with the keyboard (Space picks up, arrows move,
 * Space drops) and with the mouse (press on the handle, move in steps, release).
 */

/** The drag handles of a sortable list, in their order on screen. */
export function handles(list: Locator): Locator {
  return list.getByRole('button', { name: /^Drag / })
}

/**
 * Moves the item at `from` (0-based) by `steps` places with the keyboard. Each key waits for the
 * list's spoken announcement of the previous one, as a screen reader user would hear it: the
 * keyboard sensor starts listening only once the pick-up has been handled.
 */
export async function moveWithKeyboard(page: Page, list: Locator, from: number, steps: number) {
  const announcements = page.locator('[id^="DndLiveRegion"]')
  const handle = handles(list).nth(from)
  await handle.focus()
  await page.keyboard.press('Space')
  // "Picked up …" is soon replaced by "… is over position N" (its own place).
  await expect(announcements).toHaveText(
    new RegExp(`(Picked up .*,|is over) position ${from + 1} of`),
  )
  // dnd-kit's keyboard sensor adds its keydown listener in a setTimeout(0) after the pick-up
  // (KeyboardSensor.attach), and Chromium runs input before timers: an arrow pressed as soon as
  // the announcement shows could reach the page first and be lost (seen in CI, about one run in
  // six on a busy machine). A timer of the page's own, queued after the sensor's, has run only
  // once the sensor listens.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)))
  for (let i = 1; i <= Math.abs(steps); i += 1) {
    await page.keyboard.press(steps > 0 ? 'ArrowDown' : 'ArrowUp')
    const position = from + 1 + (steps > 0 ? i : -i)
    await expect(announcements).toHaveText(new RegExp(`is over position ${position} of`))
  }
  await page.keyboard.press('Space')
  await expect(announcements).toHaveText(/ dropped at position /)
}

/** Drags the item at `from` onto the place of the item at `to` with the mouse. */
export async function dragWithMouse(page: Page, list: Locator, from: number, to: number) {
  const announcements = page.locator('[id^="DndLiveRegion"]')
  const source = await handles(list).nth(from).boundingBox()
  const target = await handles(list).nth(to).boundingBox()
  if (!source || !target) throw new Error('the handles are not on screen')
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2)
  await page.mouse.down()
  // Past the sensor's activation distance first, then to the target in small steps.
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2 + 8, { steps: 4 })
  await expect(announcements).toHaveText(/(Picked up|is over) /)
  const beyond = to > from ? 6 : -6
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2 + beyond, {
    steps: 12,
  })
  await expect(announcements).toHaveText(new RegExp(`is over position ${to + 1} of`))
  await page.mouse.up()
  // dnd-kit swallows every click for 50 ms after a drop (a capture listener its sensor removes
  // on a timer), so a test's next click could be eaten. A later timer of the page's own has
  // fired only once that one has, whatever the machine's load.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 60)))
}

/** The ids of the list in their order on screen (each row names its id). */
export async function orderOf(list: Locator, ids: readonly string[]): Promise<string[]> {
  const rows = await list.getByRole('listitem').allTextContents()
  return rows.map((text) => ids.find((id) => text.includes(id)) ?? `?${text}`)
}
