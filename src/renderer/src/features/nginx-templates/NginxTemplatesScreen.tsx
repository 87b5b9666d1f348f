import { useCallback, useEffect, useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import type { KnownOrder, OrderedItem } from '../../../../shared/bridge/channels/operations'
import { bridge } from '../../bridge'
import { sandboxSeed, useIdSuggestions } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { RelativeTime } from '../../ui/RelativeTime'
import { useCall } from '../ops-common/form'
import { IssueList } from '../ops-common/IssueList'
import { OrderEditor } from '../ops-common/OrderEditor'
import { Outcome } from '../ops-common/Outcome'
import { needsConfirmation, WriteConfirm } from '../ops-common/WriteConfirm'
import '../ops-common/ops.css'

/*
 * Nginx templates: reorder the template folders (op 9, `items` with `sortOrder` 1..n) by drag
 * and drop or the keyboard. The service has no list operation: the list starts from the last
 * answer the app kept (op 9 answers with every folder in order), else the embedded sandbox's
 * seed, and ids can be added by hand.
 */

/** The folders as last known, else the embedded sandbox's seed, else none. */
async function startingOrder(
  profile: Pick<Profile, 'id' | 'kind'>,
): Promise<{ known: KnownOrder; ids: string[] }> {
  const known = await bridge.call('nginxTemplates.knownFolders', { profileId: profile.id })
  if (known.items.length > 0) return { known, ids: known.items.map((item) => item.id) }
  if (profile.kind === 'sandbox') {
    const seeded = (await sandboxSeed())?.['nginxTemplateFolders']
    if (Array.isArray(seeded)) {
      return { known, ids: seeded.filter((id): id is string => typeof id === 'string') }
    }
  }
  return { known, ids: [] }
}

export function NginxTemplatesScreen({ profile }: { profile: Profile }) {
  const [ids, setIds] = useState<string[]>([])
  const [known, setKnown] = useState<KnownOrder>({ items: [], fetchedAt: null })
  const [confirming, setConfirming] = useState(false)
  const folders = useIdSuggestions(
    profile,
    'nginx-template-folder',
    (seed) => seed['nginxTemplateFolders'] as string[],
  )
  const save = useCall<KnownOrder>()

  const startOver = useCallback(
    async (isLive: () => boolean = () => true) => {
      const start = await startingOrder(profile)
      if (!isLive()) return
      setKnown(start.known)
      setIds(start.ids)
    },
    [profile],
  )

  useEffect(() => {
    let live = true
    startingOrder(profile)
      .then((start) => {
        if (!live) return
        setKnown(start.known)
        setIds(start.ids)
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [profile])

  async function send() {
    const items = ids.map((id, index) => ({ id, sortOrder: index + 1 }))
    const outcome = await save.run(() =>
      bridge.call('nginxTemplates.reorder', { profileId: profile.id, items }),
    )
    setConfirming(false)
    if (outcome.ok) {
      for (const id of ids) folders.remember(id)
      setKnown(outcome.value)
      if (outcome.value.items.length > 0) setIds(outcome.value.items.map((item) => item.id))
    }
  }

  const knownById = new Map<string, OrderedItem>(known.items.map((item) => [item.id, item]))
  return (
    <section className="screen" aria-labelledby="nginx-title">
      <header className="screen-header">
        <div>
          <h1 id="nginx-title">Nginx templates</h1>
          <p className="screen-subtitle">
            The order of the template folders on <strong>{profile.name}</strong>
          </p>
        </div>
        <div className="screen-actions">
          <span className="updated">
            {known.fetchedAt !== null ? (
              <>
                Names as of <RelativeTime at={known.fetchedAt} />
              </>
            ) : null}
          </span>
          <Button onClick={() => void startOver().catch(() => undefined)} disabled={save.busy}>
            Start over
          </Button>
        </div>
      </header>

      <form
        className="op-form"
        aria-label="Reorder template folders"
        onSubmit={(event) => {
          event.preventDefault()
          save.clear()
          if (ids.length === 0) return
          if (needsConfirmation(profile, false)) setConfirming(true)
          else void send()
        }}
      >
        <OrderEditor
          label="Template folders in their new order"
          ids={ids}
          onChange={(next) => {
            save.clear()
            setIds(next)
          }}
          known={knownById}
          suggestions={folders.suggestions}
          addLabel="Add a template folder ID"
          disabled={save.busy}
        />
        <div className="op-form-actions">
          <Button
            type="submit"
            variant="primary"
            busy={save.busy && !confirming}
            disabled={!profile.signedIn || ids.length === 0}
          >
            Save order
          </Button>
          <span className="muted">
            Sends each folder with its position (sortOrder 1 to {Math.max(ids.length, 1)}).
          </span>
        </div>
      </form>
      {save.error && !confirming ? (
        <>
          <ErrorBanner error={save.error} context="The order was not saved" />
          <IssueList error={save.error} ids={ids} names={knownById} />
        </>
      ) : null}
      {save.value ? (
        <Outcome title="New order saved">
          {ids.map((id) => knownById.get(id)?.name ?? id).join(' → ')}
        </Outcome>
      ) : null}
      <WriteConfirm
        open={confirming}
        profile={profile}
        title="Save this order?"
        confirmLabel="Save order"
        tone="primary"
        busy={save.busy}
        error={save.error}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void send()}
      >
        <p>
          {ids.length} template folder{ids.length === 1 ? '' : 's'} get the order shown.
        </p>
      </WriteConfirm>
    </section>
  )
}
