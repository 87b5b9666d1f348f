/*
 * What an order form's Save sends, in words (OrderForm): the list's order, top first, without
 * the contract's field name (`sortOrder`), and sense for an empty or one-item list.
 */

/** What Save order sends, in words: the positions follow the list, top first. */
export function orderNote(noun: string, count: number): string {
  if (count === 0) return `Add the ${noun}s in the order you want them.`
  if (count === 1) return `Saves this ${noun} at position 1; add more to order them.`
  return `Saves the ${count} ${noun}s in the order shown: the top one first, at position 1.`
}
