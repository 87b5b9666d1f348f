import { useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import type { Profile } from '../../../../shared/bridge'
import type { ExpiryDays } from '../../../../shared/bridge/channels/overview'
import { formatHash, type Route, type RouteParams } from '../../app/routes'
import { ColorDot } from '../../ui/Badge'
import { plural } from '../../lib/time'
import {
  barLabel,
  bucketByWeek,
  type ExpiryChart as ExpiryChartData,
  type ExpiryWeek,
} from './expiry-weeks'

/*
 * Certificates ending in the next 90 days, one row of weekly bars per profile.
 * Drawn by hand in SVG: a handful of rectangles needs no charting library. Every
 * bar with certificates is a link to that profile's certificates of that week
 * (`#/certificates?expiry=week:<Monday>`); the bars are one Tab stop, the arrow keys move
 * between them (Up/Down between profiles), Enter opens. Colours are the theme's variables, and
 * the numbers are text too: a sentence above, a table below.
 */

const BAR = 18
const GAP = 6
const HEIGHT = 40
/** Drawn under a week with nothing ending, so an empty week reads as zero, not as missing. */
const BASELINE = 1

interface Props {
  /** Main's counts per profile and day (overview.expiryDays). */
  days: ExpiryDays
  profiles: readonly Profile[]
  /** Profiles whose certificate list was never read: their row says so instead of zeros. */
  unread: ReadonlySet<string>
  open(profileId: string, route: Route, params?: RouteParams): void
}

/** A bar's place: row (profile) and column (week). */
interface Spot {
  row: number
  week: number
}

export default function ExpiryChart({ days, profiles, unread, open }: Props) {
  const chart = useMemo(
    () =>
      bucketByWeek(
        days,
        profiles.map((profile) => profile.id),
      ),
    [days, profiles],
  )
  return <WeeklyBars chart={chart} profiles={profiles} unread={unread} open={open} />
}

function WeeklyBars({
  chart,
  profiles,
  unread,
  open,
}: Omit<Props, 'days'> & { chart: ExpiryChartData }) {
  const names = new Map(profiles.map((profile) => [profile.id, profile]))
  const rows = chart.rows.filter((row) => names.has(row.profileId))
  const spots: Spot[] = []
  rows.forEach((row, rowIndex) => {
    if (unread.has(row.profileId)) return
    row.counts.forEach((count, week) => {
      if (count > 0) spots.push({ row: rowIndex, week })
    })
  })
  const [active, setActive] = useState<Spot | null>(null)
  const links = useRef(new Map<string, { focus(): void } | null>())
  const keyOf = (spot: Spot) => `${spot.row}:${spot.week}`
  // The one Tab stop: the bar last moved to, else the first.
  const current =
    active !== null && spots.some((spot) => keyOf(spot) === keyOf(active)) ? active : spots[0]
  const width = chart.weeks.length * (BAR + GAP) - GAP

  function moveTo(spot: Spot | undefined) {
    if (spot === undefined) return
    setActive(spot)
    links.current.get(keyOf(spot))?.focus()
  }

  // React types an <a> as HTML's even inside an <svg>, where it makes an SVGAElement: the
  // handlers take any Element, the refs only need focus().
  function onKeyDown(event: KeyboardEvent<Element>, spot: Spot) {
    const index = spots.findIndex((other) => keyOf(other) === keyOf(spot))
    const nearestIn = (row: number) =>
      spots
        .filter((other) => other.row === row)
        .sort((a, b) => Math.abs(a.week - spot.week) - Math.abs(b.week - spot.week))[0]
    const rowWith = (step: -1 | 1) => {
      for (let row = spot.row + step; row >= 0 && row < rows.length; row += step) {
        const found = nearestIn(row)
        if (found !== undefined) return found
      }
      return undefined
    }
    const targets: Record<string, () => Spot | undefined> = {
      ArrowLeft: () => spots[index - 1],
      ArrowRight: () => spots[index + 1],
      ArrowUp: () => rowWith(-1),
      ArrowDown: () => rowWith(1),
      Home: () => spots[0],
      End: () => spots.at(-1),
    }
    const target = targets[event.key]
    if (target === undefined) return
    event.preventDefault()
    moveTo(target())
  }

  function follow(event: MouseEvent<Element>, profileId: string, week: ExpiryWeek) {
    // The link's href is the route; the profile becomes the active one first.
    event.preventDefault()
    open(profileId, 'certificates', { expiry: `week:${week.start}` })
  }

  const first = chart.weeks[0]
  const last = chart.weeks.at(-1)
  return (
    <section className="expiry-chart" aria-labelledby="expiry-chart-title">
      <h2 id="expiry-chart-title">Certificates expiring in the next 90 days</h2>
      <p className="muted expiry-chart-summary">
        {chart.total === 0
          ? 'No cached certificate ends in the next 90 days.'
          : `${plural(chart.total, 'certificate')} ${chart.total === 1 ? 'ends' : 'end'} in the next 90 days.`}{' '}
        By week (from Monday, UTC); every cached certificate, system ones included; already expired
        ones are in the table above. A bar opens that week&apos;s certificates; the arrow keys move
        between bars.
      </p>
      <div className="expiry-chart-grid">
        {rows.map((row, rowIndex) => {
          const profile = names.get(row.profileId)
          if (profile === undefined) return null
          const notRead = unread.has(row.profileId)
          return (
            <div className="expiry-chart-row" key={row.profileId} data-profile={profile.name}>
              <span className="expiry-chart-name" title={profile.name}>
                <ColorDot color={profile.color} />
                <span className="expiry-chart-name-text">{profile.name}</span>
              </span>
              {notRead ? (
                <span className="muted expiry-chart-unread">Certificates not read yet</span>
              ) : (
                <svg
                  className="expiry-chart-bars"
                  role="group"
                  aria-label={`${profile.name}: ${plural(row.total, 'certificate')} in the next 90 days`}
                  viewBox={`0 0 ${width} ${HEIGHT}`}
                  preserveAspectRatio="none"
                >
                  {row.counts.map((count, week) => {
                    const x = week * (BAR + GAP)
                    const when = chart.weeks[week]
                    if (count === 0 || when === undefined || chart.max === 0) {
                      return (
                        <rect
                          key={week}
                          className="expiry-chart-baseline"
                          x={x}
                          y={HEIGHT - BASELINE}
                          width={BAR}
                          height={BASELINE}
                          aria-hidden="true"
                        />
                      )
                    }
                    const spot = { row: rowIndex, week }
                    const height = Math.max(3, (count / chart.max) * HEIGHT)
                    const label = barLabel(profile.name, count, when)
                    return (
                      <a
                        key={week}
                        ref={(element) => {
                          links.current.set(keyOf(spot), element)
                        }}
                        className="expiry-chart-link"
                        href={formatHash('certificates', { expiry: `week:${when.start}` })}
                        aria-label={label}
                        tabIndex={current !== undefined && keyOf(current) === keyOf(spot) ? 0 : -1}
                        onClick={(event) => follow(event, row.profileId, when)}
                        onKeyDown={(event) => onKeyDown(event, spot)}
                        onFocus={() => setActive(spot)}
                      >
                        <title>{label}</title>
                        {/* The whole column answers the pointer, not only the bar. */}
                        <rect
                          className="expiry-chart-hit"
                          x={x}
                          y={0}
                          width={BAR}
                          height={HEIGHT}
                        />
                        <rect
                          className="expiry-chart-bar"
                          x={x}
                          y={HEIGHT - height}
                          width={BAR}
                          height={height}
                        />
                      </a>
                    )
                  })}
                </svg>
              )}
              <span className="expiry-chart-total">{notRead ? '—' : row.total}</span>
            </div>
          )
        })}
        <div className="expiry-chart-row expiry-chart-axis" aria-hidden="true">
          <span />
          <span className="expiry-chart-weeks">
            {chart.weeks.map((week) => (
              <span key={week.start}>{week.start.slice(5)}</span>
            ))}
          </span>
          <span className="muted">Total</span>
        </div>
      </div>
      <details className="expiry-chart-details">
        <summary>
          The chart&apos;s numbers as a table
          {first !== undefined && last !== undefined
            ? ` (weeks of ${first.start} to ${last.start})`
            : ''}
        </summary>
        <div className="table-wrap">
          <table className="table" aria-label="Certificates expiring per week and profile">
            <thead>
              <tr>
                <th scope="col">Week of</th>
                {rows.map((row) => (
                  <th scope="col" key={row.profileId} className="overview-figure">
                    {names.get(row.profileId)?.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {chart.weeks.map((week, index) => (
                <tr key={week.start}>
                  <th scope="row">{week.start}</th>
                  {rows.map((row) => (
                    <td key={row.profileId} className="overview-figure">
                      {unread.has(row.profileId) ? '—' : (row.counts[index] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  )
}
