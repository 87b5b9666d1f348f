import './charts.css'

/*
 * A small line of values over time, drawn by hand in SVG (a polyline needs no library). It is
 * one Tab stop with its accessible name saying what it shows in numbers (`label`), since the
 * picture alone says nothing to a screen reader; callers show the same numbers as text beside
 * it. Colours are the theme's (charts.css).
 */

const WIDTH = 120
const HEIGHT = 28
const PAD = 2

export function Sparkline({ values, label }: { values: readonly number[]; label: string }) {
  const max = Math.max(...values, 0)
  const step = values.length > 1 ? (WIDTH - 2 * PAD) / (values.length - 1) : 0
  const y = (value: number) =>
    max === 0 ? HEIGHT - PAD : HEIGHT - PAD - (value / max) * (HEIGHT - 2 * PAD)
  const points = values.map((value, index) => `${PAD + index * step},${y(value)}`).join(' ')
  return (
    <svg
      className="sparkline"
      role="img"
      aria-label={label}
      tabIndex={0}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      data-points={values.length}
    >
      <title>{label}</title>
      <line className="sparkline-base" x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
      {values.length > 1 ? (
        <polyline className="sparkline-line" points={points} />
      ) : values.length === 1 ? (
        <circle className="sparkline-dot" cx={PAD} cy={y(values[0] ?? 0)} r={2} />
      ) : null}
    </svg>
  )
}
