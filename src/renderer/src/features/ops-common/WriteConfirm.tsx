import type { ReactNode } from 'react'
import type { BridgeError, Profile } from '../../../../shared/bridge'
import { Badge } from '../../ui/Badge'
import { ConfirmDialog } from '../../ui/ConfirmDialog'

/*
 * Writes are confirmed in proportion to their harm: `harmful` ones always ask, the others only
 * on a protected profile (which always asks, naming the environment).
 */

export function needsConfirmation(profile: Pick<Profile, 'protected'>, harmful: boolean): boolean {
  return harmful || profile.protected
}

interface WriteConfirmProps {
  open: boolean
  profile: Profile
  title: string
  confirmLabel: string
  tone?: 'primary' | 'danger'
  busy: boolean
  error: BridgeError | null
  onConfirm: () => void
  onCancel: () => void
  children: ReactNode
}

export function WriteConfirm({ profile, children, ...props }: WriteConfirmProps) {
  return (
    <ConfirmDialog {...props}>
      {children}
      {profile.protected ? (
        <p className="protected-note">
          <Badge tone="danger">Protected</Badge> <strong>{profile.name}</strong> is a protected
          environment: check the ids above before you go on.
        </p>
      ) : null}
    </ConfirmDialog>
  )
}
