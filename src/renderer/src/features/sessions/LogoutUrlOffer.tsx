import { useState } from 'react'
import { bridge } from '../../bridge'
import { Button } from '../../ui/Button'

/**
 * After log out, the service may name a page that ends the browser's own sign-in too. The main
 * process opens it when it can (https only); when it could not (no desktop, web mode on a
 * server) the link is shown so the user can open it wherever they browse.
 */
export function LogoutUrlOffer({ url, opened }: { url: string; opened: boolean }) {
  const [state, setState] = useState<'idle' | 'opening' | 'opened' | 'failed'>(
    opened ? 'opened' : 'idle',
  )
  if (state === 'opened') {
    return (
      <div className="banner-message">The service’s sign-out page was opened in your browser.</div>
    )
  }
  const isHttps = url.startsWith('https://')
  return (
    <div className="banner-message logout-url">
      The service also offers a sign-out page for your browser: <code>{url}</code>
      {isHttps ? (
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
      ) : null}
      {state === 'failed' ? (
        <span className="muted">
          {' '}
          No browser could be opened from here: copy the address instead.
        </span>
      ) : null}
    </div>
  )
}
