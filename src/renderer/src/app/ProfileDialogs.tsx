import { useState } from 'react'
import type { BridgeError, Profile } from '../../../shared/bridge'
import { asBridgeError, bridge } from '../bridge'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Dialog } from '../ui/Dialog'
import { ProfileForm, type ProfileSubmission } from './ProfileForm'
import { selectProfile, useAppStore } from './store'

/** Adds a profile (token verified by the main process first) and makes it the active one. */
export async function addProfile(submission: ProfileSubmission): Promise<Profile> {
  const profile = await bridge.call('profiles.add', {
    ...submission.fields,
    token: submission.token,
    sessionOnly: submission.sessionOnly,
    checkLater: submission.checkLater ?? false,
    ...submission.network,
  })
  const app = useAppStore.getState()
  await app.activate(profile.id)
  await app.reloadProfiles()
  return profile
}

/** The add, edit and remove dialogs the profile switcher opens. */
export function ProfileDialogs() {
  const dialog = useAppStore((s) => s.profileDialog)
  const openProfileDialog = useAppStore((s) => s.openProfileDialog)
  const close = () => openProfileDialog(null)
  if (dialog === null) return null
  if (dialog.kind === 'add') {
    return (
      <Dialog open title="Add a profile" onClose={close} width="wide">
        <ProfileForm
          mode="add"
          submitLabel="Add profile"
          onCancel={close}
          onSubmit={async (submission) => {
            await addProfile(submission)
            close()
          }}
        />
      </Dialog>
    )
  }
  if (dialog.kind === 'edit')
    return <EditProfileDialog profileId={dialog.profileId} onClose={close} />
  return <RemoveProfileDialog profileId={dialog.profileId} onClose={close} />
}

function EditProfileDialog({ profileId, onClose }: { profileId: string; onClose: () => void }) {
  const profile = useAppStore(selectProfile(profileId))
  const reloadProfiles = useAppStore((s) => s.reloadProfiles)
  if (!profile) return null
  return (
    <Dialog open title={`Edit ${profile.name}`} onClose={onClose} width="wide">
      <ProfileForm
        mode="edit"
        initial={profile}
        submitLabel="Save"
        onCancel={onClose}
        onSubmit={async ({ fields, network }) => {
          await bridge.call('profiles.update', { id: profile.id, ...fields, ...network })
          await reloadProfiles()
          onClose()
        }}
      />
    </Dialog>
  )
}

function RemoveProfileDialog({ profileId, onClose }: { profileId: string; onClose: () => void }) {
  const profile = useAppStore(selectProfile(profileId))
  const reloadProfiles = useAppStore((s) => s.reloadProfiles)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeError | null>(null)
  if (!profile) return null
  return (
    <ConfirmDialog
      open
      title={`Remove ${profile.name}?`}
      confirmLabel="Remove profile"
      busy={busy}
      error={error}
      onCancel={onClose}
      onConfirm={() => {
        setBusy(true)
        setError(null)
        bridge.call('profiles.remove', { id: profile.id }).then(
          async () => {
            await reloadProfiles()
            onClose()
          },
          (thrown: unknown) => {
            setError(asBridgeError(thrown))
            setBusy(false)
          },
        )
      }}
    >
      <p>
        Infradesk forgets <strong>{profile.name}</strong> ({profile.baseUrl}): its access token is
        deleted from the keychain and its cached data from this computer.
      </p>
      <p>Nothing changes on the service itself.</p>
    </ConfirmDialog>
  )
}
