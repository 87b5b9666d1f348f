import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  closeCompletion,
  completionKeymap,
  type CompletionContext,
  type CompletionResult,
  type CompletionSource,
} from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { PostgreSQL, schemaCompletionSource, sql, type SQLNamespace } from '@codemirror/lang-sql'
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language'
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search'
import { Compartment, EditorState, Prec, StateEffect, StateField } from '@codemirror/state'
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  keymap,
  lineNumbers,
  placeholder,
  WidgetType,
  type DecorationSet,
} from '@codemirror/view'
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react'
import { aliasesAt, columnsOf, qualifiedPrefix } from './aliases'
import { sqlEditorTheme, sqlHighlightStyle } from './editor-theme'
import { formatSql } from './format-sql'

/*
 * Our own thin React wrapper around CodeMirror 6 with the PostgreSQL dialect: highlighting,
 * bracket matching, keyword completion and schema/table/column completion from the schema
 * browser, which knows the aliases of the statement under the cursor (aliases.ts), and Format
 * (Shift+Alt+F, sql-formatter loaded on first use) of the selection or the whole text.
 * React owns the text only at the edges (initial value, changes reported up); the view keeps
 * its own state so typing never re-renders the screen.
 */

export interface SqlEditorHandle {
  /** The text, the main selection, and whether something is selected. */
  snapshot(): { text: string; from: number; to: number }
  /** Marks the range about to run, for a moment. */
  flash(from: number, to: number): void
  /** Puts the error caret at an offset (null clears it). */
  markError(offset: number | null): void
  /** Inserts text at the cursor (a name from the schema browser). */
  insert(text: string): void
  /** Formats the selection, or the whole text when nothing is selected. */
  format(): Promise<void>
  focus(): void
}

interface SqlEditorProps {
  /** Used when the editor mounts (a tab's text); later changes to it are ignored. */
  initialValue: string
  schema: SQLNamespace | undefined
  readOnlyHint: boolean
  onChange(text: string): void
  onRunCurrent(): void
  onRunAll(): void
  /** Esc: cancel the running statement. Returns true when there was one to cancel. */
  onCancel(): boolean
  label: string
}

const setFlash = StateEffect.define<{ from: number; to: number } | null>()
const setErrorAt = StateEffect.define<number | null>()

const flashMark = Decoration.mark({ class: 'sql-run-flash' })

class ErrorCaret extends WidgetType {
  override toDOM(): HTMLElement {
    const caret = document.createElement('span')
    caret.className = 'sql-error-caret'
    caret.setAttribute('aria-label', 'Error position')
    caret.setAttribute('role', 'img')
    caret.textContent = '▲'
    return caret
  }
}

const decorations = StateField.define<{ flash: DecorationSet; error: DecorationSet }>({
  create: () => ({ flash: Decoration.none, error: Decoration.none }),
  update(value, transaction) {
    let { flash, error } = value
    flash = flash.map(transaction.changes)
    error = error.map(transaction.changes)
    // Editing the text makes an old error position meaningless.
    if (transaction.docChanged) error = Decoration.none
    for (const effect of transaction.effects) {
      if (effect.is(setFlash)) {
        flash =
          effect.value && effect.value.to > effect.value.from
            ? Decoration.set([flashMark.range(effect.value.from, effect.value.to)])
            : Decoration.none
      }
      if (effect.is(setErrorAt)) {
        const at = effect.value
        error =
          at === null
            ? Decoration.none
            : Decoration.set([
                Decoration.widget({ widget: new ErrorCaret(), side: -1 }).range(at),
                ...(at < transaction.state.doc.length
                  ? [Decoration.mark({ class: 'sql-error-char' }).range(at, at + 1)]
                  : []),
              ])
      }
    }
    return { flash, error }
  },
  provide: (field) => [
    EditorView.decorations.from(field, (value) => value.flash),
    EditorView.decorations.from(field, (value) => value.error),
  ],
})

export const SqlEditor = forwardRef<SqlEditorHandle, SqlEditorProps>(
  function SqlEditor(props, handle) {
    const host = useRef<HTMLDivElement>(null)
    const view = useRef<EditorView | null>(null)
    const language = useRef(new Compartment())
    // The latest callbacks, read by the keymap and the update listener without rebuilding them.
    const callbacks = useRef(props)
    useEffect(() => {
      callbacks.current = props
    })

    useEffect(() => {
      const parent = host.current
      if (!parent) return
      // Running closes the completion popup: it would otherwise stay over the results.
      const runAnd = (run: () => void) => (target: EditorView) => {
        closeCompletion(target)
        run()
        return true
      }
      const runKeys = Prec.highest(
        keymap.of([
          { key: 'Mod-Enter', run: runAnd(() => callbacks.current.onRunCurrent()) },
          { key: 'Shift-Mod-Enter', run: runAnd(() => callbacks.current.onRunAll()) },
          { key: 'Escape', run: () => callbacks.current.onCancel() },
          {
            key: 'Shift-Alt-f',
            run: (target) => {
              // Text the formatter cannot parse is left as it is.
              formatIn(target).catch(() => undefined)
              return true
            },
          },
        ]),
      )
      const created = new EditorView({
        parent,
        state: EditorState.create({
          doc: callbacks.current.initialValue,
          extensions: [
            runKeys,
            lineNumbers(),
            history(),
            drawSelection(),
            indentOnInput(),
            bracketMatching(),
            closeBrackets(),
            highlightActiveLine(),
            highlightSelectionMatches(),
            syntaxHighlighting(sqlHighlightStyle),
            sqlEditorTheme,
            autocompletion(),
            language.current.of(sqlLanguage(undefined)),
            decorations,
            placeholder(
              'Write SQL here. Ctrl+Enter runs the statement under the cursor; Shift+Alt+F formats.',
            ),
            keymap.of([
              ...closeBracketsKeymap,
              ...defaultKeymap,
              ...searchKeymap,
              ...historyKeymap,
              ...completionKeymap,
              indentWithTab,
            ]),
            EditorView.contentAttributes.of({
              'aria-label': callbacks.current.label,
              'aria-keyshortcuts': 'Control+Enter Shift+Control+Enter Shift+Alt+F',
            }),
            EditorView.updateListener.of((update) => {
              if (update.docChanged) callbacks.current.onChange(update.state.doc.toString())
            }),
          ],
        }),
      })
      view.current = created
      return () => {
        created.destroy()
        view.current = null
      }
    }, [])

    useEffect(() => {
      view.current?.dispatch({ effects: language.current.reconfigure(sqlLanguage(props.schema)) })
    }, [props.schema])

    useImperativeHandle(
      handle,
      () => ({
        snapshot() {
          const state = view.current?.state
          if (!state) return { text: '', from: 0, to: 0 }
          const { from, to } = state.selection.main
          return { text: state.doc.toString(), from, to }
        },
        flash(from, to) {
          const current = view.current
          if (!current) return
          current.dispatch({ effects: setFlash.of({ from, to }) })
          window.setTimeout(() => view.current?.dispatch({ effects: setFlash.of(null) }), 700)
        },
        markError(offset) {
          const current = view.current
          if (!current) return
          const at =
            offset === null ? null : Math.max(0, Math.min(offset, current.state.doc.length))
          current.dispatch({
            effects: setErrorAt.of(at),
            ...(at === null ? {} : { selection: { anchor: at }, scrollIntoView: true }),
          })
        },
        insert(text) {
          const current = view.current
          if (!current) return
          const { from, to } = current.state.selection.main
          current.dispatch({
            changes: { from, to, insert: text },
            selection: { anchor: from + text.length },
          })
          current.focus()
        },
        async format() {
          if (view.current) await formatIn(view.current)
        },
        focus() {
          view.current?.focus()
        },
      }),
      [],
    )

    return (
      <div
        className={`sql-editor${props.readOnlyHint ? ' sql-editor-readonly' : ''}`}
        ref={host}
        data-testid="sql-editor"
      />
    )
  },
)

function sqlLanguage(schema: SQLNamespace | undefined) {
  // The schema's completion is ours (aliases first, then lang-sql's), not sql()'s own: two
  // sources would both answer `a.`.
  return [
    sql({ dialect: PostgreSQL, upperCaseKeywords: false }),
    ...(schema ? [PostgreSQL.language.data.of({ autocomplete: schemaCompletion(schema) })] : []),
  ]
}

/**
 * Completion from the cached schema: after `alias.`, the columns of the table the statement
 * under the cursor names by that alias; elsewhere lang-sql's schema completion (schemas,
 * tables, `table.` columns).
 */
function schemaCompletion(schema: SQLNamespace): CompletionSource {
  const fromSchema = schemaCompletionSource({
    dialect: PostgreSQL,
    schema,
    defaultSchema: 'public',
  })
  const tables = asTableColumns(schema)
  return (
    context: CompletionContext,
  ): CompletionResult | null | Promise<CompletionResult | null> => {
    const line = context.state.doc.lineAt(context.pos)
    const prefix = qualifiedPrefix(line.text.slice(0, context.pos - line.from))
    if (prefix !== null && tables !== null) {
      const ref = aliasesAt(context.state.doc.toString(), context.pos).get(prefix.qualifier)
      const columns = ref ? columnsOf(tables, ref) : null
      if (columns) {
        return {
          from: context.pos - prefix.partial.length,
          options: columns.map((column) => ({ label: column, type: 'property' })),
          validFor: /^[\w$]*$/,
        }
      }
    }
    return fromSchema(context)
  }
}

/** The console's completion schema (schema → table → column names), or null in another shape. */
function asTableColumns(schema: SQLNamespace): Record<string, Record<string, string[]>> | null {
  if (Array.isArray(schema) || typeof schema !== 'object') return null
  return schema as Record<string, Record<string, string[]>>
}

/** Formats the selection, or the whole text; one undoable change. */
async function formatIn(view: EditorView): Promise<void> {
  const { from, to } = view.state.selection.main
  const whole = from === to
  const start = whole ? 0 : from
  const end = whole ? view.state.doc.length : to
  const original = view.state.sliceDoc(start, end)
  if (original.trim() === '') return
  const formatted = await formatSql(original)
  // The text changed while the formatter loaded: formatting the old text would undo the edit.
  if (view.state.sliceDoc(start, end) !== original || formatted === original) return
  view.dispatch({
    changes: { from: start, to: end, insert: formatted },
    selection: whole ? { anchor: 0 } : { anchor: start, head: start + formatted.length },
    userEvent: 'input.format',
  })
}
