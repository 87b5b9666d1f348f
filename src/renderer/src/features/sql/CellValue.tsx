/**
 * A result cell's text as the grids show it (ResultGrid, CompareGrid): NULL marked as such,
 * never as an empty string; nothing while the row is not loaded (undefined).
 */
export function CellValue({ value }: { value: string | null | undefined }) {
  if (value === undefined) return ''
  if (value === null) return <span className="sql-null">NULL</span>
  return value
}
