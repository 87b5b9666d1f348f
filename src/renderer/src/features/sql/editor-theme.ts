import { HighlightStyle } from '@codemirror/language'
import { EditorView } from '@codemirror/view'
import { tags } from '@lezer/highlight'

/*
 * The SQL editor's look, all of it from the app's CSS variables (styles.css, and the --sql-*
 * syntax colours in sql.css), so it follows the light and the dark theme without knowing which
 * is on. CodeMirror's own defaults are for a light page only: dark purple keywords, dark green
 * numbers, a white gutter and a light popup were unreadable in the dark theme.
 */

export const sqlHighlightStyle = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--sql-keyword)' },
  { tag: [tags.number, tags.literal, tags.inserted], color: 'var(--sql-number)' },
  { tag: [tags.string, tags.special(tags.string), tags.escape], color: 'var(--sql-string)' },
  { tag: [tags.bool, tags.null, tags.atom], color: 'var(--sql-atom)' },
  { tag: [tags.typeName, tags.namespace, tags.className], color: 'var(--sql-type)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--muted)' },
  { tag: [tags.operator, tags.punctuation, tags.bracket], color: 'var(--text-2)' },
  {
    tag: [tags.variableName, tags.propertyName, tags.special(tags.variableName)],
    color: 'var(--text)',
  },
  { tag: tags.invalid, color: 'var(--danger)' },
])

/**
 * Completion icons as plain letters: CodeMirror's (ƒ, 𝑥, 🔑, ...) are missing from many
 * system fonts and showed as empty boxes.
 */
const COMPLETION_ICONS: Record<string, string> = {
  keyword: 'K',
  type: 'T',
  function: 'F',
  method: 'F',
  variable: 'V',
  property: 'C',
  namespace: 'S',
  class: 'T',
  constant: 'V',
  enum: 'E',
  interface: 'T',
  text: 'A',
}

const iconRules = Object.fromEntries(
  Object.entries(COMPLETION_ICONS).map(([type, letter]) => [
    `& .cm-completionIcon-${type}:after`,
    { content: `'${letter}'`, fontSize: 'inherit', verticalAlign: 'baseline' },
  ]),
)

/** A box raised over the editor (search fields, its buttons, popups): the page's own surface. */
const raised = {
  backgroundColor: 'var(--surface)',
  color: 'var(--text)',
  border: '1px solid var(--border-strong)',
}

export const sqlEditorTheme = EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--surface)' },
  '& .cm-content': { caretColor: 'var(--text)' },
  '& .cm-cursor, & .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '& .cm-selectionBackground, &.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, & .cm-content ::selection':
    { backgroundColor: 'var(--sql-selection)' },
  '& .cm-activeLine': { backgroundColor: 'var(--row-hover)' },
  '& .cm-selectionMatch': { backgroundColor: 'var(--warning-soft)' },
  '& .cm-matchingBracket, &.cm-focused .cm-matchingBracket': {
    backgroundColor: 'var(--accent-soft)',
    outline: '1px solid var(--accent-border)',
  },
  '& .cm-nonmatchingBracket, &.cm-focused .cm-nonmatchingBracket': { color: 'var(--danger)' },
  '& .cm-placeholder': { color: 'var(--muted)' },
  '& .cm-gutters': {
    backgroundColor: 'var(--surface-2)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--border)',
  },
  '& .cm-activeLineGutter': { backgroundColor: 'var(--hover)', color: 'var(--text)' },
  '& .cm-panels': { backgroundColor: 'var(--surface-2)', color: 'var(--text)' },
  '& .cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '& .cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '& .cm-textfield, & .cm-button': { ...raised, backgroundImage: 'none' },
  '& .cm-tooltip': {
    ...raised,
    borderRadius: 'var(--radius)',
    boxShadow: '0 4px 12px var(--shadow)',
  },
  '& .cm-tooltip-autocomplete ul li': { color: 'var(--text)' },
  '& .cm-tooltip-autocomplete ul li[aria-selected]': {
    backgroundColor: 'var(--accent-fill)',
    color: 'var(--on-fill)',
  },
  '& .cm-tooltip-autocomplete-disabled ul li[aria-selected]': {
    backgroundColor: 'var(--neutral-soft)',
    color: 'var(--text)',
  },
  '& .cm-completionDetail': { color: 'inherit', opacity: '1' },
  '& .cm-completionIcon': { opacity: '1', fontFamily: 'var(--mono)', fontWeight: '600' },
  ...iconRules,
})
