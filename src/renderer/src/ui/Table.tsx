import type { ReactNode } from 'react'

export interface Column<Row> {
  key: string
  header: ReactNode
  render: (row: Row) => ReactNode
  /** Extra class for the header and cells, e.g. "col-mono", "col-nowrap". */
  className?: string
}

interface TableProps<Row> {
  /** The table's accessible name. */
  label: string
  columns: Column<Row>[]
  rows: readonly Row[]
  rowKey: (row: Row) => string
  /** Shown in place of rows when there are none. */
  empty: ReactNode
  rowClassName?: (row: Row) => string | undefined
}

export function Table<Row>({ label, columns, rows, rowKey, empty, rowClassName }: TableProps<Row>) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td className="table-empty" colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} className={rowClassName?.(row)}>
                {columns.map((column) => (
                  <td key={column.key} className={column.className}>
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  )
}
