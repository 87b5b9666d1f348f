import { useCallback, useRef } from 'react'
import { z } from 'zod'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import type { KnownOrder } from '../../../../shared/bridge/channels/operations'
import { useAppStore } from '../../app/store'
import { bridge } from '../../bridge'
import { checkOne, namesFields, useSchemaForm } from '../../lib/schema-form'
import { sandboxSeed, useIdSuggestions, type SandboxSeed } from '../../lib/suggestions'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { Table, type Column } from '../../ui/Table'
import { callOperation, dataOf, isRecord, useCall } from '../ops-common/call'
import { IdField } from '../ops-common/IdField'
import { OpForm } from '../ops-common/OpForm'
import { OpScreen } from '../ops-common/OpScreen'
import { OrderForm } from '../ops-common/OrderForm'
import { useStartingOrder } from '../ops-common/useStartingOrder'
import { schemaFormFill, useOperationForm } from '../ops-common/useOperationForm'
import { ValueTable } from '../ops-common/ValueTable'
import { MoreFields } from '../sessions/ExtraFields'
import '../ops-common/ops.css'

/*
 * Logging: look a schema up by slug (op 22) and show its fields as a table; reorder the
 * environments of a folder (op 11, `items` with `sortOrder` 1..n) by drag and drop or the
 * keyboard. The service lists neither folders nor environments, so the list starts from the
 * last answer the app kept (or, on the embedded sandbox, its seed) and ids can be added.
 */

/** Op 11 does not take the folder; its id only picks the list, and folder ids are UUIDs. */
const folderIdSchema = z.uuid()
const folderFormSchema = z.object({ folderId: folderIdSchema })

type SeedFolders = { id: string; environmentIds: string[] }[]
const seedFolders = (seed: SandboxSeed) => seed['loggingEnvironmentFolders'] as SeedFolders

/**
 * A field of a schema: the sandbox's `fields` entries (`name`, `type`, `required`,
 * `description`) or a real deployment's `fieldSchema` definitions (`key`, `location` label or
 * field, `type`, `required`, `description`). Keys of neither kind are shown in their own column.
 */
type SchemaField = Record<string, unknown>

const FIELD_KEYS = ['name', 'key', 'location', 'type', 'required', 'description']

/** Where a schema lists its fields: the sandbox's name, then a real deployment's. */
const FIELD_LISTS = ['fields', 'fieldSchema'] as const

function fieldName(field: SchemaField): string {
  return String(field['name'] ?? field['key'] ?? '—')
}

function fieldColumns(fields: SchemaField[]): Column<SchemaField>[] {
  const columns: Column<SchemaField>[] = [
    { key: 'name', header: 'Field', className: 'col-mono', render: fieldName },
  ]
  if (fields.some((field) => field['location'] !== undefined)) {
    columns.push({
      key: 'location',
      header: 'Location',
      render: (f) => String(f['location'] ?? '—'),
    })
  }
  columns.push(
    { key: 'type', header: 'Type', className: 'col-mono', render: (f) => String(f['type'] ?? '—') },
    {
      key: 'required',
      header: 'Required',
      render: (f) => (f['required'] === true ? 'yes' : f['required'] === false ? 'no' : '—'),
    },
    { key: 'description', header: 'Description', render: (f) => String(f['description'] ?? '') },
  )
  if (fields.some((field) => Object.keys(field).some((key) => !FIELD_KEYS.includes(key)))) {
    columns.push({
      key: 'other',
      header: 'Other fields',
      render: (f) => (
        <MoreFields extras={Object.entries(f).filter(([key]) => !FIELD_KEYS.includes(key))} />
      ),
    })
  }
  return columns
}

const GET_LOGGING_SCHEMA = ['getLoggingSchema'] as const

function SchemaLookup({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const form = useSchemaForm(operations.getLoggingSchema.params, {
    slug: routeParams['slug'] ?? '',
  })
  const formRef = useRef<HTMLFormElement>(null)
  useOperationForm(GET_LOGGING_SCHEMA, schemaFormFill(form), formRef)
  const { slug } = form.values
  const slugs = useIdSuggestions(
    profile,
    'logging-schema',
    (seed) => seed['loggingSchemas'] as string[],
  )
  const lookup = useCall<{ slug: string; schema: unknown }>()

  async function load() {
    const wanted = slug
    const outcome = await lookup.run(async () => {
      const answer = await callOperation(profile.id, 'getLoggingSchema', {
        params: { slug: wanted },
      })
      return { slug: wanted, schema: dataOf(answer) }
    })
    if (outcome.ok) slugs.remember(wanted)
    else if (namesFields(outcome.error)) form.placeServerErrors(outcome.error)
  }

  const schema = lookup.value?.schema
  const listKey = isRecord(schema)
    ? (FIELD_LISTS.find((key) => Array.isArray(schema[key])) ?? null)
    : null
  const listed = isRecord(schema) && listKey !== null ? (schema[listKey] as unknown[]) : null
  const fields = listed?.filter(isRecord) ?? null
  // Entries of the list that are no field objects stay with the details, not dropped.
  const odd = listed?.filter((entry) => !isRecord(entry)) ?? []
  const rest = isRecord(schema)
    ? {
        ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== listKey)),
        ...(odd.length > 0 && listKey !== null ? { [listKey]: odd } : {}),
      }
    : null
  return (
    <section className="op-section" aria-labelledby="schema-title">
      <h2 id="schema-title">Schema by slug</h2>
      <OpForm
        formRef={formRef}
        label="Look up a logging schema"
        submit={{ label: 'Look up', busy: lookup.busy, disabled: !profile.signedIn }}
        onSubmit={() => {
          if (form.check() !== null) void load()
        }}
      >
        <IdField label="Schema slug" {...form.field('slug')} known={slugs} />
      </OpForm>
      {lookup.error ? (
        <ErrorBanner error={lookup.error} context="Could not read the schema" />
      ) : null}
      {lookup.value && rest ? (
        <div className="op-section">
          <h3>{String(rest['name'] ?? lookup.value.slug)}</h3>
          {fields ? (
            <Table
              label={`Fields of ${lookup.value.slug}`}
              columns={fieldColumns(fields)}
              rows={fields}
              rowKey={(f) => `${String(f['location'] ?? '')}:${fieldName(f)}`}
              empty="This schema has no fields."
            />
          ) : (
            <p className="muted">The service did not list this schema’s fields.</p>
          )}
          <ValueTable value={rest} label="Schema details" />
        </div>
      ) : null}
    </section>
  )
}

function EnvironmentOrder({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const form = useSchemaForm(folderFormSchema, { folderId: routeParams['folderId'] ?? '' })
  const { folderId } = form.values
  const folders = useIdSuggestions(profile, 'logging-folder', (seed) =>
    seedFolders(seed).map((folder) => folder.id),
  )
  const environments = useIdSuggestions(profile, 'logging-environment', (seed) =>
    seedFolders(seed).flatMap((folder) => folder.environmentIds),
  )

  /** The folder's environments as last known, else the embedded sandbox's seed, else none. */
  const startFrom = useCallback(
    async (folder: string, order: KnownOrder): Promise<string[]> => {
      const fromAnswer = order.items
        .filter((item) => item.folderId === folder)
        .map((item) => item.id)
      if (fromAnswer.length > 0) return fromAnswer
      if (profile.kind === 'sandbox') {
        const seed = await sandboxSeed()
        const seeded = seed ? seedFolders(seed).find((entry) => entry.id === folder) : undefined
        if (seeded) return seeded.environmentIds
      }
      return []
    },
    [profile.kind],
  )

  // What the app kept, then the list of the folder the screen was opened with.
  const start = useStartingOrder(
    async () => {
      const order = await bridge.call('logging.knownEnvironments', { profileId: profile.id })
      const opened = routeParams['folderId'] ?? ''
      const ids =
        checkOne(folderIdSchema, opened) === undefined ? await startFrom(opened, order) : []
      return { known: order, ids }
    },
    // Opened once per profile; later folder changes go through chooseFolder.
    [profile.id],
  )
  const { known, ids, setIds } = start

  /** A new folder starts its own list (unless another folder was chosen meanwhile). */
  const chosenFolder = useRef(folderId)
  function chooseFolder(folder: string) {
    form.set('folderId', folder)
    chosenFolder.current = folder
    if (checkOne(folderIdSchema, folder) !== undefined) return
    void startFrom(folder, known).then((list) => {
      if (chosenFolder.current === folder) setIds(list)
    })
  }

  const folderName = known.items.find((item) => item.folderId === folderId)?.folderName
  return (
    <section className="op-section" aria-labelledby="order-title">
      <h2 id="order-title">Reorder the environments of a folder</h2>
      <OrderForm
        profile={profile}
        label="Reorder environments"
        listLabel="Environments in their new order"
        addLabel="Add an environment ID"
        noun="environment"
        order={start}
        startFailure="Could not read the environments the app kept"
        knownIds={environments}
        before={
          <IdField
            label="Folder ID"
            value={folderId}
            onChange={chooseFolder}
            known={folders}
            error={form.errorOf('folderId')}
            hint={folderName ? `Folder: ${folderName}` : 'The folder whose environments you order.'}
          />
        }
        ready={() => form.check() !== null}
        save={(items) => bridge.call('logging.reorder', { profileId: profile.id, folderId, items })}
        onSaved={(order, sent) => {
          folders.remember(folderId)
          for (const id of sent) environments.remember(id)
          const inFolder = order.items.filter((item) => item.folderId === folderId)
          start.setKnown(order, inFolder.length > 0 ? inFolder.map((item) => item.id) : undefined)
        }}
        confirmText={
          <p>
            {ids.length} environment{ids.length === 1 ? '' : 's'} of folder <code>{folderId}</code>{' '}
            get the order shown.
          </p>
        }
      />
    </section>
  )
}

export function LoggingScreen({ profile }: { profile: Profile }) {
  return (
    <OpScreen title="Logging" doing="Schemas and environment order on" profile={profile}>
      <SchemaLookup profile={profile} />
      <EnvironmentOrder profile={profile} />
    </OpScreen>
  )
}
