import { InvalidArgumentError } from 'commander'

/*
 * Option values read from the command line. commander turns an InvalidArgumentError into a
 * usage error (exit 2) that names the option.
 */

export function parseNonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number')
  return Number(value.trim())
}

export function parsePositiveInt(value: string): number {
  const parsed = parseNonNegativeInt(value)
  if (parsed < 1) throw new InvalidArgumentError('expected a number of at least 1')
  return parsed
}

/** Collects repeated `k=v` options into a record (a later key replaces an earlier one). */
export function collectKeyValue(
  value: string,
  previous: Record<string, string> = {},
): Record<string, string> {
  const at = value.indexOf('=')
  if (at <= 0) throw new InvalidArgumentError(`expected key=value, got "${value}"`)
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) }
}

/**
 * A point in time: ISO 8601 (`2026-11-01`, `2026-11-01T12:00:00Z`) or a span back from now
 * (`30m`, `12h`, `7d`). Epoch ms.
 */
export function parseSince(value: string, now: number = Date.now()): number {
  const span = /^(\d+)\s*([smhd])$/.exec(value.trim())
  if (span !== null) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
      span[2] as 's' | 'm' | 'h' | 'd'
    ]
    return now - Number(span[1]) * unit
  }
  const at = Date.parse(value)
  if (Number.isNaN(at)) {
    throw new InvalidArgumentError('expected an ISO 8601 date or a span such as 7d, 12h, 30m')
  }
  return at
}
