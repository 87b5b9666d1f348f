import type { ReactNode } from 'react'
import './table.css'

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
        <TableBody span={columns.length} isEmpty={rows.length === 0} empty={empty}>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)}>
              <RowCells columns={columns} row={row} />
            </tr>
          ))}
        </TableBody>
      </table>
    </div>
  )
}

interface TableBodyProps {
  /** How many columns the "empty" row spans. */
  span: number
  isEmpty: boolean
  /** Shown in place of rows when there are none. */
  empty: ReactNode
  /** The rows. */
  children: ReactNode
}

/** The rows, or the one row that says there are none (also VirtualTable's). */
export function TableBody({ span, isEmpty, empty, children }: TableBodyProps) {
  return (
    <tbody>
      {isEmpty ? (
        <tr>
          <td className="table-empty" colSpan={span}>
            {empty}
          </td>
        </tr>
      ) : (
        children
      )}
    </tbody>
  )
}

/** A row's cells, one a column (also VirtualTable's). */
export function RowCells<Row>({ columns, row }: { columns: readonly Column<Row>[]; row: Row }) {
  return (
    <>
      {columns.map((column) => (
        <td key={column.key} className={column.className}>
          {column.render(row)}
        </td>
      ))}
    </>
  )
}
