import type { OperationHandler } from '../context'
import { conflict, notFound } from '../failure'
import { json } from '../http'

/** Op 17: a queued or running copy job is cancelled; a finished one cannot be (409). */
const cancelCopyJob: OperationHandler<'cancelCopyJob'> = ({ core, params }) => {
  const job = core.state.copyJobs.find((candidate) => candidate.id === params.id)
  if (!job) throw notFound({ resource: 'copyJob', id: params.id })
  if (job.status !== 'queued' && job.status !== 'running') {
    throw conflict({ reason: 'The copy job has already finished', status: job.status })
  }
  const now = core.now().toISOString()
  job.status = 'cancelled'
  job.cancelledAt = now
  job.finishedAt = now
  job.updatedAt = now
  return json({ data: { ...job } })
}

export const storageHandlers = { cancelCopyJob }
