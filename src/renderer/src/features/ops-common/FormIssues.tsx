/** Messages of a failed request that name no field of the form. */
export function FormIssues({ issues }: { issues: readonly string[] }) {
  if (issues.length === 0) return null
  return (
    <ul className="form-issues">
      {issues.map((issue) => (
        <li key={issue}>{issue}</li>
      ))}
    </ul>
  )
}
