import type { Profile } from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { sandboxSeed, useIdSuggestions } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { RelativeTime } from '../../ui/RelativeTime'
import { OpScreen } from '../ops-common/OpScreen'
import { OrderForm } from '../ops-common/OrderForm'
import { useStartingOrder, type StartingOrder } from '../ops-common/useStartingOrder'
import '../ops-common/ops.css'

/*
 * Nginx templates: reorder the template folders (op 9, `items` with `sortOrder` 1..n) by drag
 * and drop or the keyboard. The service has no list operation: the list starts from the last
 * answer the app kept (op 9 answers with every folder in order), else the embedded sandbox's
 * seed, and ids can be added by hand.
 */

/** The folders as last known, else the embedded sandbox's seed, else none. */
async function startingOrder(profile: Pick<Profile, 'id' | 'kind'>): Promise<StartingOrder> {
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
  const start = useStartingOrder(() => startingOrder(profile), [profile])
  const { known, ids } = start
  const folders = useIdSuggestions(
    profile,
    'nginx-template-folder',
    (seed) => seed['nginxTemplateFolders'] as string[],
  )

  return (
    <OpScreen
      title="Nginx templates"
      doing="The order of the template folders on"
      profile={profile}
      actions={
        <>
          <span className="updated">
            {known.fetchedAt !== null ? (
              <>
                Names as of <RelativeTime at={known.fetchedAt} />
              </>
            ) : null}
          </span>
          <Button onClick={start.reload} busy={start.loading}>
            Start over
          </Button>
        </>
      }
    >
      <OrderForm
        profile={profile}
        label="Reorder template folders"
        listLabel="Template folders in their new order"
        addLabel="Add a template folder ID"
        noun="folder"
        order={start}
        startFailure="Could not read the template folders"
        knownIds={folders}
        save={(items) => bridge.call('nginxTemplates.reorder', { profileId: profile.id, items })}
        onSaved={(order, sent) => {
          for (const id of sent) folders.remember(id)
          start.setKnown(
            order,
            order.items.length > 0 ? order.items.map((item) => item.id) : undefined,
          )
        }}
        confirmText={
          <p>
            {ids.length} template folder{ids.length === 1 ? '' : 's'} get the order shown.
          </p>
        }
      />
    </OpScreen>
  )
}
