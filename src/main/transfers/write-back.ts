/**
 * Written bytes between background flushes. A big download starts its write-back while it
 * is still arriving, instead of leaving the commit's fsync a gigabyte to flush at the end
 * (about 0.85 s per GiB here, all of it after the last byte). 8 MiB rather than 32: the writes
 * that meet a flush wait for it, and short flushes make short waits (the download worker at
 * 0.84 of curl against 0.72, the commit's fsync 3-11 ms either way;
 * bench/results/HISTORY.md, export).
 */
export const FLUSH_EVERY_BYTES = 8 * 1024 * 1024

/**
 * A file's background write-back: an fdatasync started every FLUSH_EVERY_BYTES written, one at a
 * time, for whoever writes the file (AtomicFile on main, the download worker on its thread).
 * Only a head start: a flush's failure is ignored here and met again by the final fsync.
 */
export class WriteBack {
  private flushedAt = 0
  private flushing: Promise<void> | null = null

  constructor(private readonly datasync: () => Promise<void>) {}

  /** After a write that brought the file to `size` bytes: a flush if one is due. */
  wrote(size: number): void {
    if (size - this.flushedAt < FLUSH_EVERY_BYTES || this.flushing !== null) return
    this.flushedAt = size
    this.flushing = this.datasync()
      .catch(() => undefined)
      .finally(() => {
        this.flushing = null
      })
  }

  /** Resolves once the flush under way, if any, is over (before a truncate, close or fsync). */
  async settled(): Promise<void> {
    await this.flushing
  }

  /** The file was emptied: the next flush counts from its start. */
  restarted(): void {
    this.flushedAt = 0
  }
}
