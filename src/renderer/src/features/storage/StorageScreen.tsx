import { useState } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useIdSuggestions } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import {
  callOperation,
  checkWith,
  dataOf,
  isRecord,
  namesFields,
  useCall,
  useFieldChecks,
} from '../ops-common/form'
import { IdField } from '../ops-common/IdField'
import { Outcome } from '../ops-common/Outcome'
import { ValueTable } from '../ops-common/ValueTable'
import { WriteConfirm } from '../ops-common/WriteConfirm'
import '../ops-common/ops.css'

/*
 * Storage copy jobs: cancel one (op 17). The id is a UUID in the contract, checked as it is
 * typed; cancelling stops work on the service, so it is always confirmed.
 */

const idSchema = operations.cancelCopyJob.params.shape.id

export function StorageScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const [jobId, setJobId] = useState(routeParams['id'] ?? '')
  const [confirming, setConfirming] = useState(false)
  const [otherIssues, setOtherIssues] = useState<string[]>([])
  const { suggestions, remember } = useIdSuggestions(profile, 'copy-job', (seed) => {
    const jobs = seed['copyJobs'] as Record<string, string[]>
    return [...(jobs['running'] ?? []), ...(jobs['queued'] ?? [])]
  })
  const checks = useFieldChecks({ id: jobId }, { id: (value) => checkWith(idSchema, value) })
  const cancel = useCall<{ id: string; job: unknown }>()

  async function confirm() {
    const id = jobId
    const outcome = await cancel.run(async () => {
      const answer = await callOperation(profile.id, 'cancelCopyJob', { params: { id } })
      return { id, job: dataOf(answer) }
    })
    if (outcome.ok) {
      remember(id)
      setConfirming(false)
    } else if (namesFields(outcome.error)) {
      setOtherIssues(checks.placeServerErrors(outcome.error))
      setConfirming(false)
    }
  }

  const job = cancel.value?.job
  return (
    <section className="screen" aria-labelledby="storage-title">
      <header className="screen-header">
        <div>
          <h1 id="storage-title">Storage jobs</h1>
          <p className="screen-subtitle">
            Cancel a copy job on <strong>{profile.name}</strong>
          </p>
        </div>
      </header>

      <form
        className="op-form"
        aria-label="Cancel a copy job"
        onSubmit={(event) => {
          event.preventDefault()
          cancel.clear()
          setOtherIssues([])
          if (checks.attempt()) setConfirming(true)
        }}
      >
        <IdField
          label="Copy job ID"
          value={jobId}
          onChange={setJobId}
          suggestions={suggestions}
          error={checks.errors.id}
          hint="A UUID. Recent ids and, on the sandbox, its queued and running jobs are suggested."
        />
        {otherIssues.length > 0 ? (
          <ul className="form-issues">
            {otherIssues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
          </ul>
        ) : null}
        <div className="op-form-actions">
          <Button type="submit" variant="danger" disabled={!profile.signedIn}>
            Cancel copy job…
          </Button>
        </div>
      </form>

      {cancel.error && !confirming ? (
        <ErrorBanner error={cancel.error} context="The copy job was not cancelled" />
      ) : null}

      {cancel.value ? (
        <Outcome title={`Copy job ${cancel.value.id} cancelled`}>
          The service now reports it as{' '}
          <strong>{isRecord(job) ? String(job['status']) : '—'}</strong>.
        </Outcome>
      ) : null}
      {isRecord(job) ? (
        <div className="op-section">
          <h2>The job as the service returned it</h2>
          <ValueTable value={job} label="Cancelled copy job" />
        </div>
      ) : null}

      <WriteConfirm
        open={confirming}
        profile={profile}
        title="Cancel this copy job?"
        confirmLabel="Cancel copy job"
        busy={cancel.busy}
        error={cancel.error}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirm()}
      >
        <p>
          Copy job <code>{jobId}</code> stops on the service. A queued job never starts; a running
          one stops where it is. It cannot be resumed: a new copy starts from the beginning.
        </p>
        <p>A job that has already finished cannot be cancelled; the service refuses it.</p>
      </WriteConfirm>
    </section>
  )
}
