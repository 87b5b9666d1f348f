import { useId } from 'react'
import { UUID_PATTERN, type FolderNode } from './model'

/*
 * Picks a folder: "Top level" (null), a folder seen in certificate data, or any folder id typed
 * by hand (validated as you type: the service takes a UUID). `value` is what would be sent.
 */

export const OTHER = '__other__'
export const TOP = '__top__'

export interface FolderChoice {
  /** TOP, OTHER or a folder id from the tree. */
  option: string
  /** The typed id, when option is OTHER. */
  typed: string
}

export function choiceValue(choice: FolderChoice): { value: string | null; error: string | null } {
  if (choice.option === TOP) return { value: null, error: null }
  if (choice.option !== OTHER) return { value: choice.option, error: null }
  const typed = choice.typed.trim()
  if (typed === '') return { value: null, error: 'Enter a folder id' }
  if (!UUID_PATTERN.test(typed))
    return { value: null, error: 'A folder id is a UUID (8-4-4-4-12 hex digits)' }
  return { value: typed.toLowerCase(), error: null }
}

interface FolderPickerProps {
  label: string
  topLabel: string
  tree: FolderNode[]
  choice: FolderChoice
  onChange(choice: FolderChoice): void
  /** Folder ids that may not be chosen (a folder's own subtree), with why. */
  disabledIds?: ReadonlySet<string>
  disabledReason?: string
  /** From the service (details[].path) or the typed-id check. */
  error?: string | undefined
}

export function FolderPicker(props: FolderPickerProps) {
  const id = useId()
  const options = flatten(props.tree)
  const local = props.choice.option === OTHER ? choiceValue(props.choice).error : null
  const shownError = (props.choice.typed.trim() === '' ? null : local) ?? props.error
  return (
    <div className={`field${shownError ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={`${id}-select`}>
        {props.label}
      </label>
      <select
        id={`${id}-select`}
        className="input"
        value={props.choice.option}
        onChange={(event) => props.onChange({ ...props.choice, option: event.target.value })}
      >
        <option value={TOP}>{props.topLabel}</option>
        {options.map(({ node, depth }) =>
          node.id === null ? (
            <option
              key={`path:${node.path.join('/')}`}
              disabled
              value={`path:${node.path.join('/')}`}
            >
              {'\u00a0\u00a0'.repeat(depth)}
              {node.name} (id not known)
            </option>
          ) : (
            <option key={node.id} value={node.id} disabled={props.disabledIds?.has(node.id)}>
              {'\u00a0\u00a0'.repeat(depth)}
              {node.name}
              {props.disabledIds?.has(node.id) ? ` (${props.disabledReason ?? 'not allowed'})` : ''}
            </option>
          ),
        )}
        <option value={OTHER}>Another folder, by id…</option>
      </select>
      {props.choice.option === OTHER ? (
        <input
          className="input mono"
          aria-label={`${props.label}: folder id`}
          placeholder="00000000-0000-0000-0000-000000000000"
          value={props.choice.typed}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? `${id}-error` : undefined}
          spellCheck={false}
          onChange={(event) => props.onChange({ ...props.choice, typed: event.target.value })}
        />
      ) : null}
      {props.choice.option !== OTHER && props.choice.option !== TOP ? (
        <div className="field-hint mono-small">{props.choice.option}</div>
      ) : null}
      {shownError ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {shownError}
        </div>
      ) : null}
    </div>
  )
}

function flatten(nodes: FolderNode[], depth = 0): { node: FolderNode; depth: number }[] {
  return nodes.flatMap((node) => [{ node, depth }, ...flatten(node.children, depth + 1)])
}
