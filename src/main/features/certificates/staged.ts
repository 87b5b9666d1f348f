import { randomUUID } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { PemSource } from '../../../shared/bridge'
import { ServiceError } from '../../api'
import { fileSystemError } from '../../transfers'

/*
 * PEM files the Electron open dialog chose, read by main and kept here under an id until the
 * upload uses them, so a private key read from disk never has to visit the renderer. Memory
 * only, a few at a time, dropped after use or after STAGED_TTL_MS.
 */

const MAX_PEM_BYTES = 1_048_576
const STAGED_TTL_MS = 30 * 60 * 1000
const MAX_STAGED = 16

interface Staged {
  text: string
  fileName: string
  at: number
}

export interface StagedFiles {
  stage(file: string): Promise<{ stagedId: string; fileName: string }>
  /** The PEM text of a source: typed/pasted text as is, a staged file by its id. */
  read(source: PemSource): string
  drop(source: PemSource | undefined): void
  clear(): void
}

export function createStagedFiles(now: () => number = Date.now): StagedFiles {
  const staged = new Map<string, Staged>()

  function sweep() {
    for (const [id, entry] of staged) {
      if (now() - entry.at > STAGED_TTL_MS) staged.delete(id)
    }
    while (staged.size >= MAX_STAGED) {
      const oldest = staged.keys().next().value
      if (oldest === undefined) break
      staged.delete(oldest)
    }
  }

  return {
    async stage(file) {
      const info = await stat(file).catch((error: unknown) => {
        throw fileSystemError(error, path.dirname(file))
      })
      if (!info.isFile() || info.size > MAX_PEM_BYTES) {
        throw new ServiceError(
          'VALIDATION_ERROR',
          `${path.basename(file)} is not a PEM file of at most 1 MiB`,
        )
      }
      const text = await readFile(file, 'utf8')
      sweep()
      const stagedId = randomUUID()
      staged.set(stagedId, { text, fileName: path.basename(file), at: now() })
      return { stagedId, fileName: path.basename(file) }
    },
    read(source) {
      if ('pem' in source) return source.pem
      const entry = staged.get(source.stagedId)
      if (entry === undefined) {
        throw new ServiceError(
          'VALIDATION_ERROR',
          'The chosen file is no longer held: choose it again',
        )
      }
      return entry.text
    },
    drop(source) {
      if (source !== undefined && 'stagedId' in source) staged.delete(source.stagedId)
    },
    clear() {
      staged.clear()
    },
  }
}
