import type { OperationHandlers } from '../context'
import { appHandlers } from './apps'
import { certificateHandlers } from './certificates'
import { databaseHandlers } from './databases'
import { deploymentHandlers } from './deployments'
import { folderHandlers } from './folders'
import { inferenceHandlers } from './inference'
import { loggingHandlers } from './logging'
import { migrationHandlers } from './migrations'
import { proxyHandlers } from './proxy'
import { sessionHandlers } from './sessions'
import { statusPageHandlers } from './status-page'
import { storageHandlers } from './storage'
import { volumeHandlers } from './volumes'

/** One handler per operation of the contract; the type makes a missing one a compile error. */
export const handlers: OperationHandlers = {
  ...sessionHandlers,
  ...folderHandlers,
  ...certificateHandlers,
  ...databaseHandlers,
  ...inferenceHandlers,
  ...loggingHandlers,
  ...migrationHandlers,
  ...proxyHandlers,
  ...volumeHandlers,
  ...storageHandlers,
  ...statusPageHandlers,
  ...deploymentHandlers,
  ...appHandlers,
}
