import { useState } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useIdSuggestions } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { AnswerSection } from '../ops-common/AnswerSection'
import { FormIssues } from '../ops-common/FormIssues'
import { callOperation, checkWith, dataOf, text, useFieldChecks } from '../ops-common/form'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { WriteConfirm } from '../ops-common/WriteConfirm'

/*
 * Storage copy jobs: cancel one (op 17). The id is a UUID in the contract, checked as it is
 * typed; cancelling stops work on the service, so it is always confirmed.
 */

const idSchema = operations.cancelCopyJob.params.shape.id

export function StorageScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const [jobId, setJobId] = useState(routeParams['id'] ?? '')
  const jobs = useIdSuggestions(profile, 'copy-job', (seed) => {
    const byStatus = seed['copyJobs'] as Record<string, string[]>
    return [...(byStatus['running'] ?? []), ...(byStatus['queued'] ?? [])]
  })
  const checks = useFieldChecks({ id: jobId }, { id: (value) => checkWith(idSchema, value) })
  const cancel = useWrite<{ id: string; job: unknown }>(profile, checks, true)

  async function send() {
    const id = jobId
    const outcome = await cancel.send(async () => {
      const answer = await callOperation(profile.id, 'cancelCopyJob', { params: { id } })
      return { id, job: dataOf(answer) }
    })
    if (outcome.ok) jobs.remember(id)
  }

  const job = cancel.value?.job
  return (
    <OpScreen title="Storage jobs" doing="Cancel a copy job on" profile={profile}>
      <form
        className="op-form"
        aria-label="Cancel a copy job"
        onSubmit={(event) => {
          event.preventDefault()
          cancel.submit(() => void send())
        }}
      >
        <IdField
          label="Copy job ID"
          value={jobId}
          onChange={setJobId}
          suggestions={jobs.suggestions}
          error={checks.errors.id}
          hint="A UUID. Recent ids and, on the sandbox, its queued and running jobs are suggested."
        />
        <FormIssues issues={cancel.issues} />
        <div className="op-form-actions">
          <Button type="submit" variant="danger" disabled={!profile.signedIn}>
            Cancel copy job…
          </Button>
        </div>
      </form>

      {cancel.error && !cancel.confirming ? (
        <ErrorBanner error={cancel.error} context="The copy job was not cancelled" />
      ) : null}

      {cancel.value ? (
        <Outcome title={`Copy job ${cancel.value.id} cancelled`}>
          The service now reports it as <strong>{text(job, 'status') ?? 'not reported'}</strong>.
        </Outcome>
      ) : null}
      <AnswerSection
        heading="The job as the service returned it"
        label="Cancelled copy job"
        value={job}
      />

      <WriteConfirm
        {...cancel.dialog}
        profile={profile}
        title="Cancel this copy job?"
        confirmLabel="Cancel copy job"
        onConfirm={() => void send()}
      >
        <p>
          Copy job <code>{jobId}</code> stops on the service. A queued job never starts; a running
          one stops where it is. It cannot be resumed: a new copy starts from the beginning.
        </p>
        <p>A job that has already finished cannot be cancelled; the service refuses it.</p>
      </WriteConfirm>
    </OpScreen>
  )
}
