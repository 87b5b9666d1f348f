import { useRef } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useSchemaForm } from '../../lib/schema-form'
import { useIdSuggestions } from '../../lib/suggestions'
import { AnswerSection } from '../ops-common/AnswerSection'
import { callOperation, dataOf, text } from '../ops-common/call'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { useOperationForm, schemaFormFill } from '../ops-common/useOperationForm'
import { WriteForm } from '../ops-common/WriteForm'

/*
 * Storage copy jobs: cancel one (op 17). The id is a UUID in the contract, checked as it is
 * typed; cancelling stops work on the service, so it is always confirmed.
 */

const CANCEL_COPY_JOB = ['cancelCopyJob'] as const

export function StorageScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const form = useSchemaForm(operations.cancelCopyJob.params, { id: routeParams['id'] ?? '' })
  const formRef = useRef<HTMLFormElement>(null)
  useOperationForm(CANCEL_COPY_JOB, schemaFormFill(form), formRef)
  const jobs = useIdSuggestions(profile, 'copy-job', (seed) => {
    const byStatus = seed['copyJobs'] as Record<string, string[]>
    return [...(byStatus['running'] ?? []), ...(byStatus['queued'] ?? [])]
  })
  const cancel = useWrite<{ id: string; job: unknown }>(profile, form, true)

  async function send() {
    const { id } = form.values
    const outcome = await cancel.send(async () => {
      const answer = await callOperation(profile.id, 'cancelCopyJob', { params: { id } })
      return { id, job: dataOf(answer) }
    })
    if (outcome.ok) jobs.remember(id)
  }

  const job = cancel.value?.job
  return (
    <OpScreen title="Storage jobs" doing="Cancel a copy job on" profile={profile}>
      <WriteForm
        write={cancel}
        formRef={formRef}
        danger
        label="Cancel a copy job"
        submitLabel="Cancel copy job…"
        failure="The copy job was not cancelled"
        send={send}
        confirmTitle="Cancel this copy job?"
        confirmText={
          <>
            <p>
              Copy job <code>{form.values.id}</code> stops on the service. A queued job never
              starts; a running one stops where it is. It cannot be resumed: a new copy starts from
              the beginning.
            </p>
            <p>A job that has already finished cannot be cancelled; the service refuses it.</p>
          </>
        }
        outcome={
          <>
            {cancel.value ? (
              <Outcome title={`Copy job ${cancel.value.id} cancelled`}>
                The service now reports it as{' '}
                <strong>{text(job, 'status') ?? 'not reported'}</strong>.
              </Outcome>
            ) : null}
            <AnswerSection noun="job" label="Cancelled copy job" value={job} />
          </>
        }
      >
        <IdField
          label="Copy job ID"
          {...form.field('id')}
          known={jobs}
          hint="A UUID. Recent ids and, on the sandbox, its queued and running jobs are suggested."
        />
      </WriteForm>
    </OpScreen>
  )
}
