import { validationIssuesOf } from '../../../../shared/api'
import type { BridgeError } from '../../../../shared/bridge'
import type { OrderedItem } from '../../../../shared/bridge/channels/operations'

/*
 * A 400's details on a list (`["items", "2", "id"]`): each issue names the list entry it is
 * about, by name when the app knows it, so the user sees which row is wrong.
 */
export function IssueList({
  error,
  ids,
  names,
}: {
  error: BridgeError
  /** The ids as sent, so an index in a path names its entry. */
  ids?: readonly string[]
  names?: Map<string, OrderedItem>
}) {
  const issues = validationIssuesOf(error.details)
  if (issues.length === 0) return null
  return (
    <ul className="form-issues" aria-label="Problems">
      {issues.map((issue, index) => {
        // The path may start with where the field lives (["body", "items", "2", "id"]).
        const at = issue.path.indexOf('items')
        const position = at === -1 ? undefined : issue.path[at + 1]
        const entryId = position === undefined ? undefined : ids?.[Number(position)]
        const entry = entryId === undefined ? null : (names?.get(entryId)?.name ?? entryId)
        return (
          <li key={index}>
            {entry !== null
              ? `Entry ${Number(position) + 1} (${entry}): `
              : `${issue.path.join('.')}: `}
            {issue.message}
          </li>
        )
      })}
    </ul>
  )
}
