import type { ReactNode } from 'react'
import { useAppStore } from '../../app/store'
import { Button } from '../../ui/Button'

/** What a write did, with the way to its line in the Activity log. */
export function Outcome({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="banner banner-success" role="status">
      <div className="banner-text">
        <div className="banner-title">{title}</div>
        {children ? <div className="banner-message">{children}</div> : null}
        <div className="banner-context">Recorded in the Activity log.</div>
      </div>
      <OpenActivity />
    </div>
  )
}

/** A write's banner action: its line is in the Activity log. */
export function OpenActivity() {
  const navigate = useAppStore((s) => s.navigate)
  return (
    <div className="banner-action">
      <Button size="small" variant="ghost" onClick={() => navigate('activity')}>
        Open Activity
      </Button>
    </div>
  )
}
