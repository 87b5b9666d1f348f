import type { LoggingSchemaField, LoggingSchemaRecord } from '../state'

/*
 * The gateway flavour's op 22: a logging schema as a real deployment's logging module shows it
 * (`logging.schemas.ts`, `logging-storage.types.ts`; facts only): `{id, name, slug, description,
 * schemaMode, fieldSchema, folderId, sortOrder, createdById, createdAt, updatedAt}`, each field
 * definition `{key, location, type, required, description?}` with location `label` or `field`
 * (a label is always a string) and type among string, number, boolean, datetime and json.
 */

type GatewayFieldType = 'string' | 'number' | 'boolean' | 'datetime' | 'json'

const TYPE_OF: Record<LoggingSchemaField['type'], GatewayFieldType> = {
  string: 'string',
  integer: 'number',
  float: 'number',
  boolean: 'boolean',
  timestamp: 'datetime',
  ip: 'string',
  object: 'json',
}

/** Fields a log line is looked up by: kept as labels, as a real deployment indexes them. */
const LABEL_KEYS = new Set(['level', 'service', 'method', 'database'])

function fieldDefinition(field: LoggingSchemaField) {
  const type = TYPE_OF[field.type]
  const location = LABEL_KEYS.has(field.name) && type === 'string' ? 'label' : 'field'
  return {
    key: field.name,
    location,
    type,
    required: field.required,
    ...(field.description === '' ? {} : { description: field.description }),
  }
}

export function gatewaySchemaView(schema: LoggingSchemaRecord, index: number) {
  return {
    id: schema.id,
    name: schema.name,
    slug: schema.slug,
    description: schema.description,
    // JSON application logs take fields no one declared; the parsed formats refuse them.
    schemaMode: schema.slug === 'app-json' ? 'loose' : 'reject',
    fieldSchema: schema.fields.map(fieldDefinition),
    folderId: null,
    sortOrder: index,
    createdById: null,
    createdAt: schema.updatedAt,
    updatedAt: schema.updatedAt,
  }
}
