import type {
  FolderRecord,
  LoggingEnvironmentFolderRecord,
  LoggingEnvironmentRecord,
  LoggingSchemaField,
  LoggingSchemaRecord,
  NginxTemplateFolderRecord,
} from '../state'
import { DAY_MS, newId, type SeedClock } from './time'

interface FolderSpec {
  name: string
  children?: FolderSpec[]
}

/** Flattens a folder tree; `byPath` finds a folder by its names joined with '/'. */
function buildTree(specs: FolderSpec[], clock: SeedClock) {
  const folders: FolderRecord[] = []
  const byPath = new Map<string, string>()
  const visit = (list: FolderSpec[], parentId: string | null, prefix: string) => {
    list.forEach((spec, index) => {
      const id = newId()
      const path = prefix ? `${prefix}/${spec.name}` : spec.name
      byPath.set(path, id)
      folders.push({
        id,
        name: spec.name,
        parentId,
        sortOrder: index + 1,
        createdAt: clock.iso(-400 * DAY_MS + folders.length * DAY_MS),
        updatedAt: clock.iso(-30 * DAY_MS),
      })
      visit(spec.children ?? [], id, path)
    })
  }
  visit(specs, null, '')
  return { folders, byPath }
}

export function seedCertificateFolders(clock: SeedClock) {
  return buildTree(
    [
      {
        name: 'Production',
        children: [{ name: 'Web' }, { name: 'APIs', children: [{ name: 'Partners' }] }],
      },
      { name: 'Staging' },
      { name: 'Internal services' },
      { name: 'Archive', children: [{ name: '2023' }] },
    ],
    clock,
  )
}

export function seedUserFolders(clock: SeedClock): FolderRecord[] {
  return buildTree(
    [
      {
        name: 'Engineering',
        children: [{ name: 'Platform', children: [{ name: 'SRE' }] }, { name: 'Frontend' }],
      },
      { name: 'Operations', children: [{ name: 'Support' }] },
      { name: 'Contractors' },
    ],
    clock,
  ).folders
}

export function seedNginxTemplateFolders(clock: SeedClock): NginxTemplateFolderRecord[] {
  const names: [string, number][] = [
    ['Reverse proxies', 6],
    ['Static sites', 3],
    ['Load balancers', 2],
    ['Redirects', 4],
    ['WebSocket upstreams', 1],
    ['Legacy', 5],
  ]
  return names.map(([name, templateCount], index) => ({
    id: newId(),
    name,
    sortOrder: (index + 1) * 10,
    templateCount,
    updatedAt: clock.iso(-(20 - index) * DAY_MS),
  }))
}

export function seedLoggingEnvironments(clock: SeedClock) {
  const layout: [string, [string, string, number][]][] = [
    [
      'Production',
      [
        ['Production EU (Frankfurt)', 'prod-eu-central', 90],
        ['Production US (Virginia)', 'prod-us-east', 90],
        ['Production APAC (Singapore)', 'prod-ap-southeast', 60],
      ],
    ],
    [
      'Pre-production',
      [
        ['Staging', 'staging', 30],
        ['QA', 'qa', 14],
      ],
    ],
    [
      'Development',
      [
        ['Shared development', 'dev-shared', 7],
        ['Load tests', 'load-tests', 3],
      ],
    ],
  ]
  const folders: LoggingEnvironmentFolderRecord[] = []
  const environments: LoggingEnvironmentRecord[] = []
  layout.forEach(([folderName, envs], folderIndex) => {
    const folderId = newId()
    folders.push({ id: folderId, name: folderName, sortOrder: folderIndex + 1 })
    envs.forEach(([name, slug, retentionDays], index) => {
      environments.push({
        id: newId(),
        name,
        slug,
        folderId,
        sortOrder: index + 1,
        retentionDays,
        updatedAt: clock.iso(-(10 + index) * DAY_MS),
      })
    })
  })
  return { folders, environments }
}

const field = (
  name: string,
  type: LoggingSchemaField['type'],
  required: boolean,
  description: string,
): LoggingSchemaField => ({ name, type, required, description })

export function seedLoggingSchemas(
  clock: SeedClock,
  environments: LoggingEnvironmentRecord[],
): LoggingSchemaRecord[] {
  const allEnvironments = environments.map((environment) => environment.id)
  const productionOnly = environments
    .filter((environment) => environment.slug.startsWith('prod-'))
    .map((environment) => environment.id)
  return [
    {
      id: newId(),
      slug: 'nginx-access',
      name: 'Nginx access log',
      description: 'One line per request served by the edge proxies (combined format, parsed).',
      version: 3,
      timestampField: 'time',
      fields: [
        field('time', 'timestamp', true, 'When the request finished'),
        field('remote_addr', 'ip', true, 'Client address'),
        field('method', 'string', true, 'HTTP method'),
        field('path', 'string', true, 'Request path without the query'),
        field('status', 'integer', true, 'Response status'),
        field('bytes_sent', 'integer', true, 'Response bytes'),
        field('request_time', 'float', false, 'Seconds spent on the request'),
        field('user_agent', 'string', false, 'User-Agent header'),
      ],
      environmentIds: allEnvironments,
      updatedAt: clock.iso(-12 * DAY_MS),
    },
    {
      id: newId(),
      slug: 'app-json',
      name: 'Application JSON log',
      description: 'Structured logs written by the services as one JSON object a line.',
      version: 5,
      timestampField: 'ts',
      fields: [
        field('ts', 'timestamp', true, 'Event time'),
        field('level', 'string', true, 'debug, info, warn or error'),
        field('service', 'string', true, 'Service that logged the event'),
        field('message', 'string', true, 'Human-readable message'),
        field('trace_id', 'string', false, 'W3C trace id'),
        field('context', 'object', false, 'Free-form structured context'),
      ],
      environmentIds: allEnvironments,
      updatedAt: clock.iso(-3 * DAY_MS),
    },
    {
      id: newId(),
      slug: 'postgres-slow-query',
      name: 'PostgreSQL slow queries',
      description: 'Statements slower than log_min_duration_statement on managed databases.',
      version: 2,
      timestampField: 'logged_at',
      fields: [
        field('logged_at', 'timestamp', true, 'When the statement finished'),
        field('database', 'string', true, 'Database name'),
        field('duration_ms', 'float', true, 'Execution time in milliseconds'),
        field('statement', 'string', true, 'Normalised statement text'),
        field('rows', 'integer', false, 'Rows returned or affected'),
      ],
      environmentIds: productionOnly,
      updatedAt: clock.iso(-40 * DAY_MS),
    },
    {
      id: newId(),
      slug: 'audit-events',
      name: 'Audit events',
      description: 'Who changed what: every write made through the service.',
      version: 1,
      timestampField: 'occurred_at',
      fields: [
        field('occurred_at', 'timestamp', true, 'When the change happened'),
        field('actor', 'string', true, 'User or key that made the change'),
        field('action', 'string', true, 'Permission-style action, e.g. ssl:certificates:create'),
        field('target_id', 'string', false, 'Id of the changed resource'),
        field('success', 'boolean', true, 'Whether the change was applied'),
      ],
      environmentIds: allEnvironments,
      updatedAt: clock.iso(-90 * DAY_MS),
    },
  ]
}
