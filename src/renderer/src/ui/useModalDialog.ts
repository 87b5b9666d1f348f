import { useEffect, useRef, type RefObject } from 'react'

/**
 * A `<dialog>` shown as a modal for as long as its component is mounted: opened with
 * showModal() (the page behind it inert, Esc a `cancel` event) with the focus on
 * `initialFocus`'s element, closed on unmount, and the focus given back where it was before.
 */
export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  initialFocus: (dialog: HTMLDialogElement) => HTMLElement | null | undefined,
): void {
  // Read once, when the dialog opens: the caller's function may be a new one every render.
  const initialFocusRef = useRef(initialFocus)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const previouslyFocused =
      document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (!dialog.open) dialog.showModal()
    initialFocusRef.current(dialog)?.focus()
    return () => {
      if (dialog.open) dialog.close()
      previouslyFocused?.focus()
    }
  }, [ref])
}
