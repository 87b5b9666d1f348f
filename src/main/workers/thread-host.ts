import type { Worker } from 'node:worker_threads'
import type { z } from 'zod'

/*
 * Main's end of a worker thread that callers wait on, a job or a write at a time (the download
 * worker, the file writer thread). Idle, it is unref'd: it never keeps a script's process
 * alive. A malformed message, an error or its exit fails every waiter at once, and the host is
 * no longer `alive`: its owner's next call starts another (`liveHost`).
 */
export abstract class ThreadHost<Message, Waiter extends { reject(error: Error): void }> {
  /** Who waits on which job or write, by its number. */
  protected readonly waiters = new Map<number, Waiter>()
  /** Why the thread is gone; nothing more can be asked of it. */
  protected failure: Error | null = null

  constructor(
    protected readonly worker: Worker,
    /** How messages name it: `the ${name} stopped (1)`. */
    name: string,
    messages: z.ZodType<Message>,
    onGone: () => void,
  ) {
    worker.unref()
    worker.on('message', (raw: unknown) => {
      const parsed = messages.safeParse(raw)
      if (!parsed.success) {
        this.fail(new Error(`the ${name} sent a malformed message`))
        void worker.terminate()
        return
      }
      this.receive(parsed.data)
    })
    const gone = (error: Error) => {
      this.fail(error)
      onGone()
    }
    worker.on('error', gone)
    worker.on('exit', (code) => gone(new Error(`the ${name} stopped (${code})`)))
  }

  get alive(): boolean {
    return this.failure === null
  }

  protected abstract receive(message: Message): void

  /** `waiter` waits on `id`; the thread is ref'd while anyone waits. */
  protected wait(id: number, waiter: Waiter): void {
    this.worker.ref()
    this.waiters.set(id, waiter)
  }

  /** The waiter of `id`, no longer waiting (none: undefined); unref'd once nobody waits. */
  protected settle(id: number): Waiter | undefined {
    const waiter = this.waiters.get(id)
    this.waiters.delete(id)
    if (this.waiters.size === 0) this.worker.unref()
    return waiter
  }

  private fail(error: Error) {
    if (this.failure !== null) return
    this.failure = error
    for (const waiter of this.waiters.values()) waiter.reject(error)
    this.waiters.clear()
    this.worker.unref()
  }
}

/** The one live host of a kind: started at first use, and again once the last one is gone. */
export function liveHost<H extends { alive: boolean }>(start: (onGone: () => void) => H): () => H {
  let current: H | null = null
  return () => {
    if (current === null || !current.alive) {
      const started: H = start(() => {
        if (current === started) current = null
      })
      current = started
    }
    return current
  }
}
