import type { OperationName } from '../../../shared/api'
import type { KnownObject } from '../../../shared/bridge/channels/known-objects'
import { operations } from '../../../shared/api'
import { idKindNoun, whereIdsComeFrom } from '../lib/id-kinds'
import { inWords } from '../lib/in-words'
import {
  PALETTE_ENTRIES,
  scoreOfWords,
  UUID_PATTERN,
  type PaletteEntry,
  type PaletteMatch,
} from './palette-entries'
import { ROUTE_INFO, type RouteParams } from './routes'

/*
 * "<verb> <kind> <name>" in the palette: `export certificate payments-api` finds the
 * certificate by its name and opens the export on it. The words that match an operation come
 * first; what follows is a name, looked up among the objects the app has seen on the active
 * profile (main's known objects: a certificate list, a rotation's answer…), and each object
 * found becomes an entry that opens the operation with its id (and the node or host it lives
 * on, when the operation's path needs that too). A name the profile knows no object by still
 * offers the operation, saying so and where such an id comes from (`export certificate
 * nosuch` said only "Nothing matches", as if the verb were wrong). Pure: the palette asks main
 * for the names.
 */

/** What the name after an operation's words names, and the path parameters it fills. */
interface NamedTarget {
  /** The known-object kind the name is looked up as. */
  kind: string
  /** The path parameter the object's id fills. */
  param: string
  /** Further path parameters, from the object: its node, or one of its identifying fields. */
  also?: Readonly<Record<string, 'nodeId' | { field: string }>>
  /**
   * The name is itself a valid value of `param` (a volume's name, a schema's slug): offered
   * as typed, after the objects found, so an object the app has not seen can still be named.
   */
  literal?: boolean
}

export const NAMED_TARGETS: Readonly<Partial<Record<OperationName, NamedTarget>>> = {
  exportCertificate: { kind: 'certificate', param: 'id' },
  moveCertificateFolder: { kind: 'certificate-folder', param: 'id' },
  moveUserFolder: { kind: 'user-folder', param: 'id' },
  runPostgresQuery: { kind: 'database', param: 'id' },
  rotateDatabaseCertificate: { kind: 'database', param: 'id' },
  resolveMigration: { kind: 'migration', param: 'id' },
  retryProxyRoute: {
    kind: 'proxy-route',
    param: 'routeId',
    also: { id: { field: 'proxyHostId' } },
  },
  exportVolume: { kind: 'volume', param: 'name', also: { nodeId: 'nodeId' }, literal: true },
  cancelCopyJob: { kind: 'copy-job', param: 'id' },
  resolveIncident: { kind: 'incident', param: 'id' },
  resolveDeploymentSource: {
    kind: 'deployment',
    param: 'deploymentId',
    also: { nodeId: 'nodeId' },
  },
  listAppMembers: { kind: 'app', param: 'id' },
  getLoggingSchema: { kind: 'logging-schema', param: 'slug', literal: true },
}

type OperationEntry = Extract<PaletteEntry, { kind: 'operation' }>

/** An operation whose words the query starts with, and the name that follows them. */
export interface NamedRequest {
  entry: OperationEntry
  target: NamedTarget
  /** The words after the operation's, as typed (their case kept). */
  name: string
  /** How well the operation's words matched (palette-entries' score). */
  score: number
  /** What the entry opens with before the name is found: `op` and any ids typed. */
  params: RouteParams
}

const OPERATION_ENTRIES = PALETTE_ENTRIES.filter(
  (entry): entry is OperationEntry => entry.kind === 'operation',
)

/**
 * For each operation that can be given a name and that the words alone do not match: the
 * longest run of the query's first words that matches it, the rest being the name. UUIDs typed fill the path
 * parameters in order, as in the plain search. Only the operations that took the most words
 * are kept: in `export certificate payments` the kind is said, so the certificate's export is
 * meant, not a volume's export of a volume named "certificate payments".
 */
export function namedRequests(query: string): NamedRequest[] {
  const tokens = query.trim().split(/\s+/).filter(Boolean)
  const typedIds = tokens.filter((token) => UUID_PATTERN.test(token))
  const words = tokens.filter((token) => !UUID_PATTERN.test(token))
  const requests: (NamedRequest & { wordsTaken: number })[] = []
  for (const entry of OPERATION_ENTRIES) {
    const target = NAMED_TARGETS[entry.operation]
    if (target === undefined) continue
    // Every word matches the operation itself: the plain entry is the one meant.
    if (scoreOfWords(entry, lowered(words)) !== null) continue
    for (let count = words.length - 1; count >= 1; count--) {
      const score = scoreOfWords(entry, lowered(words.slice(0, count)))
      if (score === null) continue
      const params: RouteParams = { op: entry.operation }
      const open = entry.idParams.filter((name) => name !== target.param)
      open.forEach((name, index) => {
        const typed = typedIds[index]
        if (typed !== undefined) params[name] = typed
      })
      const name = words.slice(count).join(' ')
      requests.push({ entry, target, name, score, params, wordsTaken: count })
      break
    }
  }
  const most = Math.max(0, ...requests.map((request) => request.wordsTaken))
  return requests
    .filter((request) => request.wordsTaken === most)
    .map(({ wordsTaken: _taken, ...request }) => request)
}

const lowered = (words: readonly string[]) => words.map((word) => word.toLowerCase())

/** The key a name is looked up under: one lookup per kind and name, whichever operation asks. */
export function lookupKey(kind: string, name: string): string {
  return `${kind}\u0000${name.toLowerCase()}`
}

/** namedMatches' score of an object found by name (a value taken as typed scores below). */
const FOUND_BY_NAME = 100

/**
 * The plain matches and the named ones in the order shown. An operation on an object found by
 * the name typed after its words leads when no entry holds every word (`export certificate
 * payments-api`), else it follows them (`resolve migration` means the operation, not an
 * incident named "migration"); a value taken as typed (a volume name, a slug) comes after both.
 * An operation on a name known by no object is offered only when nothing else holds the words
 * (`resolve migration` is not also "a status page incident named “migration”, unknown").
 */
export function withNamedMatches(
  plain: readonly PaletteMatch[],
  named: readonly PaletteMatch[],
): PaletteMatch[] {
  const foundByName = named.filter((match) => match.score >= FOUND_BY_NAME)
  const typedAsIs = named.filter(
    (match) => match.score < FOUND_BY_NAME && match.unknownName === undefined,
  )
  const onUnknownNames = named.filter((match) => match.unknownName !== undefined)
  if (plain.length > 0) return [...plain, ...foundByName, ...typedAsIs]
  return foundByName.length > 0 ? [...foundByName, ...typedAsIs] : [...typedAsIs, ...onUnknownNames]
}

/** How many objects one name may offer (a part of many names offers the newest seen). */
const PER_NAME = 5

/**
 * The entries the requests make once their names were looked up (`found`: by lookupKey, the
 * objects whose id or name holds the name; a name not looked up yet, or whose lookup failed, is
 * absent). An object named exactly so comes before one whose name only holds it; a literal
 * value (volume, slug) comes last. A name looked up and known by no object of its kind offers
 * the operation without an id, marked `unknownName`. Best first.
 */
export function namedMatches(
  requests: readonly NamedRequest[],
  found: ReadonlyMap<string, readonly KnownObject[]>,
): PaletteMatch[] {
  const matches: PaletteMatch[] = []
  for (const request of requests) {
    const { entry, target, name } = request
    const lookedUp = found.get(lookupKey(target.kind, name))
    const objects = [...(lookedUp ?? [])]
      .filter((object) => object.kind === target.kind)
      .sort((a, b) => Number(isExactly(b, name)) - Number(isExactly(a, name)))
      .slice(0, PER_NAME)
    for (const object of objects) {
      const params: RouteParams = { ...request.params, [target.param]: object.id }
      for (const [param, from] of Object.entries(target.also ?? {})) {
        const value = from === 'nodeId' ? object.nodeId : (object.fields[from.field] ?? null)
        if (value !== null && value !== '' && params[param] === undefined) params[param] = value
      }
      matches.push({
        entry: {
          ...entry,
          key: `${entry.key}:${target.kind}:${object.id}`,
          title: titleOn(entry, target.kind, object.name ?? object.id),
          detail: `${described(object)} · ${ROUTE_INFO[entry.route].label}`,
        },
        params,
        // Every word was used: above any plain match; an exact name above a partial one.
        score: FOUND_BY_NAME + request.score + (isExactly(object, name) ? 10 : 0),
      })
    }
    if (target.literal === true && !objects.some((object) => isExactly(object, name))) {
      matches.push({
        entry: {
          ...entry,
          key: `${entry.key}:${target.param}=${name}`,
          title: titleOn(entry, target.kind, name),
          detail: `${paramWords(entry.operation, target.param)} “${name}” · ${
            ROUTE_INFO[entry.route].label
          }`,
        },
        params: { ...request.params, [target.param]: name },
        score: request.score,
      })
    } else if (lookedUp !== undefined && objects.length === 0) {
      // The words said the operation: it still opens its screen (which asks for the id), and
      // says the name was the part not found.
      matches.push({
        entry: {
          ...entry,
          key: `${entry.key}:${target.kind}:unknown`,
          detail: `${noneNamed([target.kind], name)} · ${ROUTE_INFO[entry.route].label}`,
        },
        params: request.params,
        score: request.score,
        unknownName: { kind: target.kind, name },
      })
    }
  }
  return matches.sort((a, b) => b.score - a.score)
}

/**
 * What the palette says under options on names no object is known by: that none of those kinds
 * is known by the name on this profile, and where such an id (name, slug) comes from. Null when
 * no option shown is one of those.
 */
export function unknownNameNote(shown: readonly PaletteMatch[]): string | null {
  const kindsByName = new Map<string, string[]>()
  for (const { unknownName } of shown) {
    if (unknownName === undefined) continue
    const kinds = kindsByName.get(unknownName.name) ?? []
    if (!kinds.includes(unknownName.kind)) kinds.push(unknownName.kind)
    kindsByName.set(unknownName.name, kinds)
  }
  if (kindsByName.size === 0) return null
  const sentences = [...kindsByName].map(([name, kinds]) => `${noneNamed(kinds, name)}.`)
  const where = whereIdsComeFrom([...new Set([...kindsByName.values()].flat())])
  return [...sentences, ...(where === null ? [] : [where])].join(' ')
}

/** "No certificate named “x” is known to this profile" (kinds joined by "or"). */
function noneNamed(kinds: readonly string[], name: string): string {
  return `No ${inWords(kinds.map(idKindNoun), 'or')} named “${name}” is known to this profile`
}

/**
 * An operation's title with the kind and name it acts on, "Export a volume: volume “pgdata”",
 * whether the object was found or its name is taken as typed: what is acted on reads in the
 * option.
 */
function titleOn(entry: OperationEntry, kind: string, name: string): string {
  return `${entry.title}: ${idKindNoun(kind)} “${name}”`
}

function isExactly(object: KnownObject, name: string): boolean {
  const wanted = name.toLowerCase()
  return object.name?.toLowerCase() === wanted || object.id.toLowerCase() === wanted
}

/** "payments-api · <id>", or the id alone when no name is known. */
function described(object: KnownObject): string {
  return object.name === null || object.name === object.id
    ? object.id
    : `${object.name} · ${object.id}`
}

/** "The volume name", "The slug": the parameter as the path names it. */
function paramWords(operation: OperationName, param: string): string {
  const path = operations[operation].path
  return param === 'name' && path.includes('/volumes/') ? 'Volume' : `The ${param}`
}
