import { useId, type ReactNode } from 'react'
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

export interface CardChoice<Value extends string> {
  value: Value
  title: string
  text: string
}

interface ChoiceCardsProps<Value extends string> {
  choices: readonly CardChoice<Value>[]
  /** The chosen value; none chosen yet when it matches no choice. */
  value: Value
  onChoose(value: Value): void
  /** The screen's own class beside "choice-card". */
  className: string
  /** The class of each choice's text: muted unless the screen styles it. */
  textClassName?: string
}

/** A radio group of cards, each a title above its text (the theme, a migration's side). */
export function ChoiceCards<Value extends string>(props: ChoiceCardsProps<Value>) {
  // The group's radios share a name of their own: no two groups on a page can mix.
  const name = useId()
  return props.choices.map((choice) => (
    <ChoiceCard
      key={choice.value}
      name={name}
      value={choice.value}
      checked={props.value === choice.value}
      onChoose={() => props.onChoose(choice.value)}
      className={props.className}
    >
      <span>
        <strong>{choice.title}</strong>
        <span className={props.textClassName ?? 'muted'}>{choice.text}</span>
      </span>
    </ChoiceCard>
  ))
}
