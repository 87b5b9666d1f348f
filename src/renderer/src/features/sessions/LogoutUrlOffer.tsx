import { useState } from 'react'
import { bridge } from '../../bridge'
import { Button } from '../../ui/Button'
import { copyWithNote } from '../../ui/CopyButton'

/**
 * After log out, the service may name a page that ends the browser's own sign-in too. The main
 * process decides whether it is safe to open (https, on the profile's own site) and opens it
 * when it can. A trusted page it could not open (no desktop, web mode on a server) gets an
 * "Open in browser" button; any other address is only shown as text with a Copy button, never
 * as a link: the service does not get to send the browser to a site of its choosing.
 */
export function LogoutUrlOffer({
  url,
  trusted,
  opened,
}: {
  url: string
  trusted: boolean
  opened: boolean
}) {
  const [state, setState] = useState<'idle' | 'opening' | 'opened' | 'failed'>(
    opened ? 'opened' : 'idle',
  )
  if (state === 'opened') {
    return (
      <div className="banner-message">The service’s sign-out page was opened in your browser.</div>
    )
  }
  if (!trusted) return <ForeignLogoutUrl url={url} />
  return (
    <div className="banner-message logout-url">
      The service also offers a sign-out page for your browser: <code>{url}</code>
      <Button
        size="small"
        busy={state === 'opening'}
        onClick={() => {
          setState('opening')
          bridge.call('shell.openExternal', { url }).then(
            ({ opened: done }) => setState(done ? 'opened' : 'failed'),
            () => setState('failed'),
          )
        }}
      >
        Open in browser
      </Button>
      {state === 'failed' ? (
        <span className="muted">
          {' '}
          No browser could be opened from here: copy the address instead.
        </span>
      ) : null}
    </div>
  )
}

/** An address off the profile's site (or not https): text to copy, nothing to click through. */
function ForeignLogoutUrl({ url }: { url: string }) {
  const [note, setNote] = useState<string | null>(null)
  const copy = () => copyWithNote(url, setNote, 'Address copied', 'address')
  return (
    <div className="banner-message logout-url">
      The service also names a sign-out page that is not on this profile’s site, so it was not
      opened: <code>{url}</code>{' '}
      <Button size="small" onClick={copy} aria-label="Copy the sign-out page address">
        Copy
      </Button>
      {note ? (
        <span className="muted" role="status">
          {' '}
          {note}
        </span>
      ) : null}
    </div>
  )
}
