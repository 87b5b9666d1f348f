import { create } from 'zustand'
import type { Migration } from '../../../../shared/api'

/*
 * Migrations resolved in this window, per profile, newest first: the service has no operation
 * to read a migration back, so the answer of op 13 is the record the screen keeps showing.
 */

export interface ResolvedMigration {
  migration: Migration
  /** Epoch ms, when the service answered. */
  resolvedAt: number
}

interface MigrationsState {
  resolved: Record<string, ResolvedMigration[]>
  add(profileId: string, migration: Migration): void
}

export const useMigrationsStore = create<MigrationsState>()((set) => ({
  resolved: {},
  add(profileId, migration) {
    set((state) => ({
      resolved: {
        ...state.resolved,
        [profileId]: [
          { migration, resolvedAt: Date.now() },
          ...(state.resolved[profileId] ?? []).filter(
            (entry) => entry.migration.id !== migration.id,
          ),
        ],
      },
    }))
  },
}))
