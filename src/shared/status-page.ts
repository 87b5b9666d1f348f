import { parseTimestamp } from './time'

/*
 * Reading op 21's preview, whose shape the interface leaves open ("data envelope" only). Each
 * thing the screen names (title, overall state, a component's or incident's state, when an
 * incident started) is read from the first of its known synonyms that holds a usable value;
 * every field not read that way is handed back as an extra, so the screen shows it rather than
 * drop it. Main keeps the service's objects as they came; the renderer reads them here.
 */

export type Extra = readonly [key: string, value: unknown]
type Fields = Record<string, unknown>

/**
 * A page-wide or component state, in our words; `null` when the service's word is not one we
 * know. `unknown` is a word a service sends (a real deployment's service whose source cannot be
 * read): the service does not know the state, which is not the same as us not knowing the word.
 */
export type StatusLevel =
  'operational' | 'degraded' | 'partial_outage' | 'major_outage' | 'maintenance' | 'unknown'
/** An incident's progress, in our words. */
export type IncidentStage = 'investigating' | 'identified' | 'monitoring' | 'resolved'

const LEVEL_SYNONYMS: Record<string, StatusLevel> = {
  operational: 'operational',
  ok: 'operational',
  up: 'operational',
  none: 'operational',
  all_systems_operational: 'operational',
  degraded: 'degraded',
  degraded_performance: 'degraded',
  minor: 'degraded',
  partial_outage: 'partial_outage',
  partial: 'partial_outage',
  major: 'partial_outage',
  major_outage: 'major_outage',
  outage: 'major_outage',
  down: 'major_outage',
  critical: 'major_outage',
  maintenance: 'maintenance',
  under_maintenance: 'maintenance',
  scheduled_maintenance: 'maintenance',
  unknown: 'unknown',
  no_data: 'unknown',
}

const STAGE_SYNONYMS: Record<string, IncidentStage> = {
  investigating: 'investigating',
  open: 'investigating',
  identified: 'identified',
  monitoring: 'monitoring',
  resolved: 'resolved',
  closed: 'resolved',
  completed: 'resolved',
  postmortem: 'resolved',
}

/** "Partial Outage", "partial-outage" and "partial_outage" are one word to us. */
function key(word: string): string {
  return word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
}

export function statusLevelOf(word: string | null): StatusLevel | null {
  return word === null ? null : (LEVEL_SYNONYMS[key(word)] ?? null)
}

export function incidentStageOf(word: string | null): IncidentStage | null {
  return word === null ? null : (STAGE_SYNONYMS[key(word)] ?? null)
}

/** Field names, by what the screen calls them; the first one present with a usable value wins. */
const NAMES = {
  title: ['title', 'name', 'pageName', 'page_name'],
  url: ['publicUrl', 'public_url', 'url', 'link'],
  overall: ['overallStatus', 'overall_status', 'overall', 'status', 'state', 'indicator'],
  generatedAt: ['generatedAt', 'generated_at', 'updatedAt', 'updated_at', 'lastUpdated'],
  components: ['components', 'services'],
  componentStatus: ['status', 'state', 'indicator'],
  history: ['healthHistory', 'health_history', 'history', 'uptimeHistory'],
  slotAt: ['ts', 'at', 'time', 'timestamp', 'date', 'start'],
  group: ['group', 'groupName', 'group_name'],
  description: ['description'],
  incidentTitle: ['title', 'name'],
  incidentMessage: ['message', 'summary', 'body'],
  incidentStatus: ['status', 'state'],
  impact: ['impact', 'severity'],
  componentIds: [
    'componentIds',
    'component_ids',
    'affectedComponentIds',
    'affectedServiceIds',
    'affected_service_ids',
  ],
  startedAt: ['startedAt', 'started_at', 'createdAt', 'created_at', 'begin', 'beganAt', 'start'],
  updatedAt: ['updatedAt', 'updated_at'],
  resolvedAt: ['resolvedAt', 'resolved_at', 'endedAt', 'ended_at', 'end'],
  updates: ['updates', 'incidentUpdates', 'incident_updates'],
  updateAt: ['at', 'createdAt', 'created_at', 'timestamp', 'time', 'date'],
  updateMessage: ['message', 'body', 'text'],
} as const

/** Where the page's own fields may be nested ("page": { "name": … }). */
const PAGE_OBJECTS = ['page', 'statusPage', 'status_page'] as const
/** Where a preview lists its incidents. */
export const INCIDENT_LIST_KEYS = [
  'openIncidents',
  'recentlyResolved',
  'incidents',
  'activeIncidents',
  'active_incidents',
  'unresolvedIncidents',
  'resolvedIncidents',
  'pastIncidents',
] as const

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads synonyms off one object and remembers which keys it used; `extras()` is then every
 * key not used, in the service's order.
 */
function reader(fields: Fields, prefix = '') {
  const used = new Set<string>()
  function first<T>(names: readonly string[], read: (value: unknown) => T | null): T | null {
    for (const name of names) {
      if (!(name in fields)) continue
      // A known name sent as null says "none": read, not an extra. Junk stays an extra.
      if (fields[name] === null) {
        used.add(name)
        continue
      }
      const value = read(fields[name])
      if (value !== null) {
        used.add(name)
        return value
      }
    }
    return null
  }
  return {
    text: (names: readonly string[]) =>
      first(names, (value) => (typeof value === 'string' && value !== '' ? value : null)),
    time: (names: readonly string[]) => first(names, parseTimestamp),
    list: (names: readonly string[]) =>
      first(names, (value) => (Array.isArray(value) ? value : null)),
    use: (name: string) => used.add(name),
    extras: (): Extra[] =>
      Object.entries(fields)
        .filter(([name]) => !used.has(name))
        .map(([name, value]) => [`${prefix}${name}`, value] as const),
  }
}

export interface StatusWord {
  /** As the service wrote it; null when it sent none. */
  text: string | null
  /** Ours; null when the word is not one we know (the text is then shown as it is). */
  level: StatusLevel | null
}

/** One time slot of a component's health history (a real deployment's `{ts, status, slow?}`). */
export interface HealthSlot {
  /** Epoch ms of the slot's start; null when it has no readable time. */
  at: number | null
  status: StatusWord
  /** The check answered, but slowly. */
  slow: boolean
  extras: Extra[]
}

export interface ComponentReading {
  id: string | null
  name: string | null
  group: string | null
  description: string | null
  status: StatusWord
  /** Oldest first, as the service sent it; empty when it sent none. */
  history: HealthSlot[]
  extras: Extra[]
}

export interface PageReading {
  title: string | null
  description: string | null
  url: string | null
  overall: StatusWord
  /** Epoch ms. */
  generatedAt: number | null
  components: ComponentReading[]
  /** Every field not read above, with `page.` before those of a nested page object. */
  extras: Extra[]
}

export interface UpdateReading {
  at: number | null
  status: string | null
  message: string | null
  extras: Extra[]
}

export interface IncidentReading {
  id: string
  title: string | null
  /** What the incident says, besides its updates (a real deployment's `message`). */
  message: string | null
  status: { text: string | null; stage: IncidentStage | null }
  impact: string | null
  componentIds: string[]
  /** Epoch ms. */
  startedAt: number | null
  updatedAt: number | null
  resolvedAt: number | null
  /** False once resolved (by its word, or a resolution time without a word). */
  open: boolean
  updates: UpdateReading[]
  extras: Extra[]
}

function readComponent(value: unknown): ComponentReading {
  if (!isFields(value)) {
    return {
      id: null,
      name: null,
      group: null,
      description: null,
      status: { text: null, level: null },
      history: [],
      extras: [['value', value]],
    }
  }
  const fields = reader(value)
  const id = fields.text(['id'])
  const name = fields.text(['name', 'title'])
  const group = fields.text(NAMES.group)
  const description = fields.text(NAMES.description)
  const text = fields.text(NAMES.componentStatus)
  const history = (fields.list(NAMES.history) ?? []).map(readSlot)
  return {
    id,
    name,
    group,
    description,
    status: { text, level: statusLevelOf(text) },
    history,
    extras: fields.extras(),
  }
}

function readSlot(value: unknown): HealthSlot {
  if (!isFields(value)) {
    return {
      at: null,
      status: { text: null, level: null },
      slow: false,
      extras: [['value', value]],
    }
  }
  const fields = reader(value)
  const at = fields.time(NAMES.slotAt)
  const text = fields.text(NAMES.componentStatus)
  const slow = value['slow'] === true
  if (typeof value['slow'] === 'boolean') fields.use('slow')
  return { at, status: { text, level: statusLevelOf(text) }, slow, extras: fields.extras() }
}

/** The page (op 21's `data` without its incident lists). */
export function readStatusPage(page: Fields): PageReading {
  const top = reader(page)
  const nestedKey = PAGE_OBJECTS.find((name) => isFields(page[name]))
  const nested = nestedKey === undefined ? null : reader(page[nestedKey] as Fields, `${nestedKey}.`)
  if (nestedKey !== undefined) top.use(nestedKey)
  const title = top.text(NAMES.title) ?? nested?.text(NAMES.title) ?? null
  const description = top.text(NAMES.description) ?? nested?.text(NAMES.description) ?? null
  const url = top.text(NAMES.url) ?? nested?.text(NAMES.url) ?? null
  const overallText = top.text(NAMES.overall) ?? nested?.text(NAMES.overall) ?? null
  const generatedAt = top.time(NAMES.generatedAt) ?? nested?.time(NAMES.generatedAt) ?? null
  const components = (top.list(NAMES.components) ?? nested?.list(NAMES.components) ?? []).map(
    readComponent,
  )
  return {
    title,
    description,
    url,
    overall: { text: overallText, level: statusLevelOf(overallText) },
    generatedAt,
    components,
    extras: [...top.extras(), ...(nested?.extras() ?? [])],
  }
}

function readUpdate(value: unknown): UpdateReading {
  if (!isFields(value)) return { at: null, status: null, message: null, extras: [['value', value]] }
  const fields = reader(value)
  const at = fields.time(NAMES.updateAt)
  const status = fields.text(NAMES.incidentStatus)
  const message = fields.text(NAMES.updateMessage)
  return { at, status, message, extras: fields.extras() }
}

/** One incident; its `id` is required upstream (op 18 needs it). */
export function readIncident(incident: Fields & { id: string }): IncidentReading {
  const fields = reader(incident)
  fields.use('id')
  const title = fields.text(NAMES.incidentTitle)
  const message = fields.text(NAMES.incidentMessage)
  const statusText = fields.text(NAMES.incidentStatus)
  const stage = incidentStageOf(statusText)
  const impact = fields.text(NAMES.impact)
  const ids = fields.list(NAMES.componentIds) ?? []
  const startedAt = fields.time(NAMES.startedAt)
  const updatedAt = fields.time(NAMES.updatedAt)
  const resolvedAt = fields.time(NAMES.resolvedAt)
  const updates = (fields.list(NAMES.updates) ?? []).map(readUpdate)
  return {
    id: incident.id,
    title,
    message,
    status: { text: statusText, stage },
    impact,
    componentIds: ids.filter((id): id is string => typeof id === 'string'),
    startedAt,
    updatedAt,
    resolvedAt,
    open: stage === null ? resolvedAt === null : stage !== 'resolved',
    updates,
    extras: fields.extras(),
  }
}
