export { createPostgresEngine, UnknownDatabaseError } from './engine'
export { LARGE_TABLE_ROWS } from './seed'
export { schemaNameFor } from './server-backend'
export { SqlError } from './types'
export type {
  PostgresDatabaseSpec,
  PostgresEngine,
  PostgresEngineOptions,
  SqlOutcome,
} from './types'
