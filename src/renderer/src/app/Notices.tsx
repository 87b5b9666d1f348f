import { Button } from '../ui/Button'
import { useAppStore } from './store'

/** Things the app wants the user to know (e.g. "the cache was rebuilt"), until dismissed. */
export function Notices() {
  const notices = useAppStore((s) => s.notices)
  const dismiss = useAppStore((s) => s.dismissNotice)
  if (notices.length === 0) return null
  return (
    <div className="notices" aria-label="Notices" role="region">
      {notices.map((notice) => (
        <div
          key={notice.id}
          className={`banner banner-${notice.level === 'info' ? 'info' : notice.level}`}
          role={notice.level === 'error' ? 'alert' : 'status'}
        >
          <div className="banner-text">
            <div className="banner-message">{notice.message}</div>
          </div>
          <div className="banner-action">
            <Button variant="ghost" size="small" onClick={() => dismiss(notice.id)}>
              Dismiss
            </Button>
          </div>
        </div>
      ))}
    </div>
  )
}
