/*
 * Every kind of object an operation takes an id of, in words, and where a person gets such an
 * id: the screen of this app that lists them, the command of the CLI that prints them, or, for
 * the kinds the service cannot list, the object's page in the service's web console (whose link,
 * pasted into an id field, gives the id) and the names this app has seen. One table, read by the
 * id fields' hints (IdField, the SQL console's database field), the headlines of 404s
 * (error-headlines) and the palette's options on a named object (palette-names).
 */

import { inWords } from './in-words'

interface IdKindWords {
  /** One object, in words: "copy job". */
  noun: string
  /** Several: "copy jobs". */
  plural: string
  /** What identifies one in the service's paths, when it is not an id (a volume's name). */
  key?: 'name' | 'slug'
  /** Where this app lists them, as a sentence that stands alone. */
  listedOn?: string
  /** The CLI's command that prints them. */
  cli?: string
}

export const ID_KINDS = {
  certificate: {
    noun: 'certificate',
    plural: 'certificates',
    listedOn:
      'The Certificates screen lists the certificates (select one: its details show its id)',
    cli: 'infradesk certs list',
  },
  'certificate-folder': {
    noun: 'certificate folder',
    plural: 'certificate folders',
    listedOn:
      'The Certificates screen shows the certificate folders in its tree (refresh it for the current ones)',
  },
  session: {
    noun: 'session',
    plural: 'browser sessions',
    listedOn: 'The Sessions screen lists the browser sessions (refresh it for the current ones)',
    cli: 'infradesk sessions list',
  },
  incident: {
    noun: 'incident',
    plural: 'status page incidents',
    listedOn: 'The Status page screen lists the incidents, each with its id',
    cli: 'infradesk incidents list',
  },
  database: { noun: 'database', plural: 'databases', cli: 'infradesk databases list' },
  migration: { noun: 'migration', plural: 'migrations' },
  node: { noun: 'node', plural: 'nodes' },
  deployment: { noun: 'deployment', plural: 'deployments' },
  volume: { noun: 'volume', plural: 'volumes', key: 'name' },
  'copy-job': { noun: 'copy job', plural: 'copy jobs' },
  'proxy-host': { noun: 'proxy host', plural: 'proxy hosts' },
  'proxy-route': { noun: 'proxy route', plural: 'proxy routes' },
  'user-folder': { noun: 'user folder', plural: 'user folders' },
  'nginx-template-folder': { noun: 'nginx template folder', plural: 'nginx template folders' },
  app: { noun: 'app', plural: 'apps' },
  'app-environment': { noun: 'app environment', plural: 'app environments' },
  'logging-schema': { noun: 'logging schema', plural: 'logging schemas', key: 'slug' },
  'logging-folder': { noun: 'logging environment folder', plural: 'logging environment folders' },
  'logging-environment': { noun: 'logging environment', plural: 'logging environments' },
} as const satisfies Readonly<Record<string, IdKindWords>>

export type IdKind = keyof typeof ID_KINDS

export function isIdKind(kind: string): kind is IdKind {
  return Object.hasOwn(ID_KINDS, kind)
}

/** The kind in words ("copy job"); the kind's own name for one not in the table. */
export function idKindNoun(kind: string): string {
  return isIdKind(kind) ? ID_KINDS[kind].noun : kind
}

/**
 * Where a person gets ids (names, slugs) of these kinds: a sentence per kind this app or its
 * CLI lists, and one for all the kinds the service cannot list (the web console, the names
 * seen). Null when no kind is in the table.
 */
export function whereIdsComeFrom(kinds: string | readonly string[]): string | null {
  const known = (typeof kinds === 'string' ? [kinds] : kinds)
    .filter(isIdKind)
    .map((kind): IdKindWords => ID_KINDS[kind])
  const sentences = known.flatMap((words) =>
    words.listedOn === undefined
      ? []
      : [`${words.listedOn}${words.cli === undefined ? '' : `, or run ${words.cli}`}.`],
  )
  const unlisted = known.filter((words) => words.listedOn === undefined)
  if (unlisted.length > 0) {
    const keys = [...new Set(unlisted.map((words) => words.key ?? 'id'))]
    const commands = unlisted.flatMap((words) => (words.cli === undefined ? [] : [words.cli]))
    sentences.push(
      `The service cannot list ${inWords(
        unlisted.map((words) => words.plural),
        'or',
      )}: open ` +
        `one in the service’s web console and paste its link (or its ${inWords(keys, 'or')}), ` +
        `or type a name this app has seen` +
        `${commands.length === 0 ? '' : ` (or run ${inWords(commands, 'or')})`}.`,
    )
  }
  return sentences.length === 0 ? null : sentences.join(' ')
}
