import { useRef, useState } from 'react'
import { z } from 'zod'
import { appMemberSchema, operations, type AppMember } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { displayValue, extraFields } from '../../lib/extra-fields'
import { checkOne, namesFields, useSchemaForm } from '../../lib/schema-form'
import { useIdSuggestions, type SandboxSeed } from '../../lib/suggestions'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { KnownName } from '../../ui/KnownName'
import { Table, type Column } from '../../ui/Table'
import { callOperation, dataOf, useCall } from '../ops-common/call'
import { IdField } from '../ops-common/IdField'
import { schemaFormFill, useOperationForm } from '../ops-common/useOperationForm'
import { OpForm } from '../ops-common/OpForm'
import { OpScreen } from '../ops-common/OpScreen'
import { MoreFields } from '../sessions/ExtraFields'
import '../ops-common/ops.css'
import './apps.css'

/*
 * The members of an app (op 20), optionally of one environment (a UUID, checked as typed),
 * grouped by kind. Docker members name their node. The service lists only what the caller may
 * view, which the screen says, since a viewer sees fewer members than an admin.
 */

/** The environment is optional: empty lists every one, so it is checked only when typed. */
const environmentSchema = operations.listAppMembers.query.shape.environmentId
const membersFormSchema = operations.listAppMembers.params.extend({ environmentId: z.string() })

const KIND_LABELS: Record<string, string> = {
  docker: 'Docker containers',
  database: 'Databases',
  proxy_host: 'Proxy hosts',
  static_site: 'Static sites',
}
const MEMBER_FIELDS = ['type', 'id', 'name', 'environmentId', 'nodeIds', 'nodeId'] as const

type SeedApps = { id: string; environmentIds: string[] }[]
const seedApps = (seed: SandboxSeed) => seed['apps'] as SeedApps

interface Listing {
  appId: string
  environmentId: string | null
  members: AppMember[]
  /** Entries of the answer that are not members (shown, never dropped silently). */
  unreadable: number
}

/** A member field of unknown type (the spec leaves the types open) as text. */
function Plain({ value }: { value: unknown }) {
  return value === null || value === undefined ? (
    <span className="muted">—</span>
  ) : (
    <>{displayValue(value)}</>
  )
}

/** An id a member names (its environment, its nodes): with the name known for it. */
function Id({ value }: { value: unknown }) {
  return typeof value === 'string' && value !== '' ? (
    <KnownName id={value} />
  ) : (
    <Plain value={value} />
  )
}

function columns(kind: string): Column<AppMember>[] {
  const list: Column<AppMember>[] = [
    { key: 'name', header: 'Name', render: (m) => <Plain value={m.name} /> },
    { key: 'id', header: 'ID', className: 'col-mono', render: (m) => <Plain value={m.id} /> },
    {
      key: 'environment',
      header: 'Environment',
      className: 'col-mono',
      render: (m) => <Id value={m.environmentId} />,
    },
  ]
  if (kind === 'docker') {
    list.push({
      key: 'node',
      header: 'Node',
      className: 'col-mono',
      render: (m) => <Id value={m['nodeId']} />,
    })
  }
  list.push({
    key: 'nodes',
    header: 'Nodes',
    className: 'col-mono',
    render: (m) =>
      Array.isArray(m.nodeIds) && m.nodeIds.length > 0 ? (
        <ul className="value-list">
          {m.nodeIds.map((node) => (
            <li key={String(node)}>
              <Id value={node} />
            </li>
          ))}
        </ul>
      ) : (
        <span className="muted">—</span>
      ),
  })
  list.push({
    key: 'more',
    header: 'More',
    render: (m) => {
      const extras = extraFields(m, MEMBER_FIELDS)
      return extras.length === 0 ? <span className="muted">—</span> : <MoreFields extras={extras} />
    },
  })
  return list
}

const LIST_APP_MEMBERS = ['listAppMembers'] as const

export function AppsScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const form = useSchemaForm(membersFormSchema, {
    id: routeParams['id'] ?? '',
    environmentId: routeParams['environmentId'] ?? '',
  })
  const formRef = useRef<HTMLFormElement>(null)
  useOperationForm(LIST_APP_MEMBERS, schemaFormFill(form), formRef)
  const { id: appId, environmentId } = form.values
  const environmentError =
    environmentId === '' ? undefined : checkOne(environmentSchema, environmentId)
  const [otherIssues, setOtherIssues] = useState<string[]>([])
  const apps = useIdSuggestions(profile, 'app', (seed) => seedApps(seed).map((app) => app.id))
  const environments = useIdSuggestions(profile, 'app-environment', (seed) => [
    ...new Set(seedApps(seed).flatMap((app) => app.environmentIds)),
  ])
  const list = useCall<Listing>()

  async function load() {
    const request = { appId, environmentId: environmentId === '' ? null : environmentId }
    const outcome = await list.run(async () => {
      const answer = await callOperation(profile.id, 'listAppMembers', {
        params: { id: request.appId },
        query: request.environmentId === null ? {} : { environmentId: request.environmentId },
      })
      const data = dataOf(answer)
      const entries = Array.isArray(data) ? data : []
      const members = entries.flatMap((entry) => {
        const parsed = appMemberSchema.safeParse(entry)
        return parsed.success ? [parsed.data] : []
      })
      return { ...request, members, unreadable: entries.length - members.length }
    })
    if (outcome.ok) {
      apps.remember(request.appId)
      if (request.environmentId !== null) environments.remember(request.environmentId)
    } else if (namesFields(outcome.error)) {
      setOtherIssues(form.placeServerErrors(outcome.error))
    }
  }

  const listing = list.value
  const groups = new Map<string, AppMember[]>()
  for (const member of listing?.members ?? []) {
    const kind = typeof member.type === 'string' ? member.type : 'unknown'
    groups.set(kind, [...(groups.get(kind) ?? []), member])
  }

  return (
    <OpScreen title="App members" doing="The members of an app on" profile={profile}>
      <OpForm
        formRef={formRef}
        label="List app members"
        issues={otherIssues}
        submit={{ label: 'List members', busy: list.busy, disabled: !profile.signedIn }}
        onSubmit={() => {
          setOtherIssues([])
          if (form.check() !== null && environmentError === undefined) void load()
        }}
      >
        <div className="op-form-row">
          <IdField label="App ID" {...form.field('id')} known={apps} />
          <IdField
            label="Environment ID (optional)"
            {...form.field('environmentId')}
            error={environmentError ?? form.errorOf('environmentId')}
            known={environments}
            hint="A UUID; empty lists every environment you may view."
          />
        </div>
      </OpForm>

      {list.error ? <ErrorBanner error={list.error} context="Could not list the members" /> : null}

      {listing ? (
        <div className="op-section" aria-label="Members" role="region">
          <p className="table-summary" role="status">
            {listing.members.length} member{listing.members.length === 1 ? '' : 's'} of app{' '}
            <code>{listing.appId}</code>
            {listing.environmentId === null ? (
              ' in every environment you may view'
            ) : (
              <>
                {' '}
                in environment <code>{listing.environmentId}</code>
              </>
            )}
            . The service lists only the members you may view.
            {listing.unreadable > 0
              ? ` ${listing.unreadable} entr${listing.unreadable === 1 ? 'y was' : 'ies were'} not a member and ${listing.unreadable === 1 ? 'is' : 'are'} not shown.`
              : null}
          </p>
          {[...groups.entries()].map(([kind, members]) => (
            <div className="apps-group" key={kind}>
              <h2>
                {KIND_LABELS[kind] ?? kind} <span className="muted">({members.length})</span>
              </h2>
              <Table
                label={KIND_LABELS[kind] ?? kind}
                columns={columns(kind)}
                rows={members}
                rowKey={(m) => `${displayValue(m.id)}:${displayValue(m.environmentId)}`}
                empty="None"
              />
            </div>
          ))}
        </div>
      ) : null}
    </OpScreen>
  )
}
