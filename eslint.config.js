import { builtinModules } from 'node:module'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

/*
 * Layers, enforced here rather than by habit. The model is VS Code's layering
 * (https://github.com/microsoft/vscode/wiki/Source-Code-Organization): each layer may import
 * only the layers below it, and the lint fails on any import that crosses the other way.
 *
 *   src/shared    pure TypeScript: no node:*, no electron, nothing of main, renderer or sandbox
 *   src/renderer  runs in the window: shared only (main is reached through the bridge)
 *   src/sandbox   a stand-alone service: shared only, never electron
 *   src/main      shared; src/sandbox only from the embedded-sandbox entry (SANDBOX_ENTRY);
 *                 electron only from index.ts and shell/ (ELECTRON_SHELL), so the rest runs in
 *                 plain Node (web mode, tests); never the renderer
 *   src/preload   electron and shared; never main, renderer or sandbox
 *
 * Imports are matched by their text (no-restricted-imports for static imports and re-exports,
 * no-restricted-syntax for import()). A relative import reaches another layer only by climbing
 * with `../` and then naming the layer's folder, so a layer is recognised as `../…/<layer>/…`.
 * The price: inside a layer, no folder or module may be named main, renderer, sandbox or shared
 * where it would be imported as `../<name>` (src/main/features/sandbox.ts is imported as
 * `./features/sandbox` or `./sandbox`, which is fine). test/main/lint-layers.test.ts pins every
 * rule, allowed and refused.
 */

/** Files of main that may import src/sandbox: the embedded sandbox's entry and its process. */
const SANDBOX_ENTRY = ['src/main/features/embedded-sandbox.ts', 'src/main/sandbox-process/**']
/** Files of main that may import electron. */
const ELECTRON_SHELL = ['src/main/index.ts', 'src/main/shell/**']

/** A restricted import: a regular expression on the import's text, and why it is refused. */
const layer = (name, message) => ({
  regex: `^(?:(?:\\.\\./)+(?:src/)?|src/)${name}(?:/|$)`,
  message,
})
const bareBuiltins = builtinModules.filter((name) => !name.startsWith('node:'))
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const NODE = {
  regex: `^(?:node:|(?:${bareBuiltins.map(escapeRegex).join('|')})(?:/|$))`,
  message: 'Node built-ins are for src/main and src/sandbox only; this layer must run anywhere.',
}
const ELECTRON = {
  regex: '^electron(?:/|$)',
  message: 'Only src/main/index.ts, src/main/shell and src/preload may import electron.',
}
const MAIN = layer('main', 'The main process is reached through the bridge (src/shared/bridge).')
const RENDERER = layer('renderer', 'The renderer is the window: nothing below it may import it.')
const SANDBOX = layer(
  'sandbox',
  'Only the embedded-sandbox entry (src/main/features/embedded-sandbox.ts, ' +
    'src/main/sandbox-process) may import src/sandbox.',
)

/** The rules that refuse `restricted` imports, static and dynamic. */
function refuse(...restricted) {
  return {
    'no-restricted-imports': ['error', { patterns: restricted }],
    'no-restricted-syntax': [
      'error',
      ...restricted.map(({ regex, message }) => ({
        selector: `ImportExpression[source.value=/${new RegExp(regex).source}/]`,
        message,
      })),
    ],
  }
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // The layers. Each file matches exactly one of these blocks: a later block would replace an
  // earlier one's options for the same rule, not add to them.
  { files: ['src/shared/**/*.{ts,tsx}'], rules: refuse(NODE, ELECTRON, MAIN, RENDERER, SANDBOX) },
  { files: ['src/renderer/**/*.{ts,tsx}'], rules: refuse(NODE, ELECTRON, MAIN, SANDBOX) },
  { files: ['src/sandbox/**/*.{ts,tsx}'], rules: refuse(ELECTRON, MAIN, RENDERER) },
  { files: ['src/preload/**/*.{ts,tsx}'], rules: refuse(MAIN, RENDERER, SANDBOX) },
  {
    files: ['src/main/**/*.{ts,tsx}'],
    ignores: [...ELECTRON_SHELL, ...SANDBOX_ENTRY],
    rules: refuse(ELECTRON, RENDERER, SANDBOX),
  },
  { files: ELECTRON_SHELL, rules: refuse(RENDERER, SANDBOX) },
  { files: SANDBOX_ENTRY, rules: refuse(ELECTRON, RENDERER) },
  // The terminal companion: main's core in plain Node, so never electron.
  { files: ['src/cli/**/*.ts'], rules: refuse(ELECTRON, RENDERER, SANDBOX) },
)
