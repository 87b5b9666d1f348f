import type { Readable } from 'node:stream'

/** What a seeded volume holds; the archive is generated from it, never held in memory whole. */
export interface VolumeSpec {
  nodeId: string
  name: string
  /** Bytes of file content inside the volume (>= 1 GiB for the large one). */
  dataBytes: number
  /** Makes the content deterministic: the same seed gives the same archive bytes. */
  seed: string
}

/** A .tar.gz of a volume whose length is known without generating it. */
export interface VolumeArchive {
  /** Exact length in bytes of the .tar.gz stream. */
  sizeBytes: number
  /** Hex sha256 of the whole archive (computed once by streaming, then cached). */
  sha256(): Promise<string>
  /** Streams bytes [start, end] inclusive (the whole archive when no range is given). */
  createReadStream(range?: { start: number; end: number }): Readable
}

export type CreateVolumeArchive = (spec: VolumeSpec) => VolumeArchive
