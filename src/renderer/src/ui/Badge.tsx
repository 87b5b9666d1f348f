import type { ReactNode } from 'react'
import './badge.css'

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger'

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>
}

/** The profile's colour as a small dot; decorative, the name always stands beside it. */
export function ColorDot({ color }: { color: string }) {
  return <span className="color-dot" style={{ backgroundColor: color }} aria-hidden="true" />
}
