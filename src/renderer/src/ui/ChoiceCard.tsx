import type { ReactNode } from 'react'
import './forms.css'

interface ChoiceCardProps {
  /** The radio group's name. */
  name: string
  value: string
  checked: boolean
  onChoose: () => void
  /** The screen's own class beside "choice-card". */
  className?: string
  /** The choice's text, beside the radio. */
  children: ReactNode
}

/** One choice of a radio group: the radio and its text in a bordered card, highlighted while chosen. */
export function ChoiceCard({
  name,
  value,
  checked,
  onChoose,
  className,
  children,
}: ChoiceCardProps) {
  return (
    <label className={className ? `choice-card ${className}` : 'choice-card'}>
      <input type="radio" name={name} value={value} checked={checked} onChange={onChoose} />
      {children}
    </label>
  )
}
