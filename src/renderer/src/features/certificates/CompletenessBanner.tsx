import type { ListCompleteness } from '../../../../shared/bridge'

/*
 * Never a part shown as the whole: op 16's paging is not in the spec, so main's walk over its
 * pages may end short of the list (its bounds on pages, certificates and bytes; a total that
 * disagrees), and items the service listed without a usable id cannot be shown. Main says so in
 * `completeness.message`, shown here as it came.
 */
export function CompletenessBanner({ completeness }: { completeness: ListCompleteness }) {
  const title =
    completeness.reason === 'unlisted'
      ? 'Some items the service listed are not shown'
      : 'The service may hold more certificates than listed'
  return (
    <div className="banner banner-warning" role="status" aria-label="List may be incomplete">
      <div className="banner-text">
        <div className="banner-title">{title}</div>
        <div className="banner-message">{completeness.message}</div>
      </div>
    </div>
  )
}
