/*
 * EXPLAIN (FORMAT JSON) as a tree: each node with its cost and rows, drawn as bars against the
 * plan's largest, so the expensive branch stands out. With ANALYZE, actual rows and time too.
 */

interface PlanNode {
  'Node Type'?: string
  'Relation Name'?: string
  'Index Name'?: string
  Alias?: string
  'Join Type'?: string
  'Startup Cost'?: number
  'Total Cost'?: number
  'Plan Rows'?: number
  'Actual Rows'?: number
  'Actual Total Time'?: number
  'Actual Loops'?: number
  Plans?: PlanNode[]
  [key: string]: unknown
}

interface PlanRoot {
  Plan?: PlanNode
  'Planning Time'?: number
  'Execution Time'?: number
}

export function PlanTree({ plan, analyze }: { plan: unknown; analyze: boolean }) {
  const root = (Array.isArray(plan) ? plan[0] : plan) as PlanRoot | undefined
  const top = root?.Plan
  if (!top) return <p className="muted">The plan has no nodes.</p>
  const scale: PlanScale = {
    maxCost: Math.max(1, ...walk(top).map((node) => node['Total Cost'] ?? 0)),
    maxRows: Math.max(1, ...walk(top).map((node) => rowsOf(node, analyze))),
    analyze,
  }
  return (
    <div className="sql-plan">
      <p className="sql-plan-summary">
        {analyze ? 'EXPLAIN ANALYZE' : 'EXPLAIN'} · total cost {format(top['Total Cost'])}
        {root['Planning Time'] !== undefined
          ? ` · planning ${format(root['Planning Time'])} ms`
          : ''}
        {root['Execution Time'] !== undefined
          ? ` · execution ${format(root['Execution Time'])} ms`
          : ''}
      </p>
      <ul role="tree" aria-label="Query plan" className="sql-plan-tree">
        <PlanItem node={top} scale={scale} level={1} />
      </ul>
    </div>
  )
}

/** What every node's bars are drawn against: the plan's largest, and whether rows are actual. */
interface PlanScale {
  maxCost: number
  maxRows: number
  analyze: boolean
}

/** A node's rows: actual with ANALYZE, else the planner's estimate. */
function rowsOf(node: PlanNode, analyze: boolean): number {
  return analyze ? (node['Actual Rows'] ?? 0) : (node['Plan Rows'] ?? 0)
}

function PlanItem({ node, scale, level }: { node: PlanNode; scale: PlanScale; level: number }) {
  const { maxCost, maxRows, analyze } = scale
  const cost = node['Total Cost'] ?? 0
  const rows = rowsOf(node, analyze)
  const target = [
    node['Join Type'] ? `${node['Join Type']} join` : '',
    node['Relation Name'] ?? '',
    node['Index Name'] ? `using ${node['Index Name']}` : '',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    <li
      role="treeitem"
      aria-level={level}
      aria-expanded={node.Plans ? true : undefined}
      aria-selected={false}
    >
      <div className="sql-plan-node">
        <span className="sql-plan-type">{node['Node Type'] ?? 'Node'}</span>
        {target ? <span className="sql-plan-target"> {target}</span> : null}
        <div className="sql-plan-bars">
          <Bar
            label="cost"
            value={cost}
            max={maxCost}
            text={`${format(node['Startup Cost'])}..${format(cost)}`}
          />
          <Bar
            label={analyze ? 'actual rows' : 'rows'}
            value={rows}
            max={maxRows}
            text={`${format(rows)}${analyze && node['Plan Rows'] !== undefined ? ` (est. ${format(node['Plan Rows'])})` : ''}`}
          />
          {analyze && node['Actual Total Time'] !== undefined ? (
            <span className="sql-plan-time">
              {format(node['Actual Total Time'])} ms × {node['Actual Loops'] ?? 1}
            </span>
          ) : null}
        </div>
      </div>
      {node.Plans?.length ? (
        <ul role="group">
          {node.Plans.map((child, index) => (
            <PlanItem key={index} node={child} scale={scale} level={level + 1} />
          ))}
        </ul>
      ) : null}
    </li>
  )
}

function Bar({
  label,
  value,
  max,
  text,
}: {
  label: string
  value: number
  max: number
  text: string
}) {
  const percent = Math.max(1, Math.round((value / max) * 100))
  return (
    <span className="sql-plan-bar" title={`${label}: ${text}`}>
      <span className="sql-plan-bar-label">{label}</span>
      <span className="sql-plan-bar-track" aria-hidden="true">
        <span
          className={`sql-plan-bar-fill sql-plan-bar-${label === 'cost' ? 'cost' : 'rows'}`}
          style={{ width: `${percent}%` }}
        />
      </span>
      <span className="sql-plan-bar-value">{text}</span>
    </span>
  )
}

function walk(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(walk)]
}

function format(value: number | undefined): string {
  if (value === undefined) return '?'
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(2)
}
