import { writeError } from './output'

/*
 * Ctrl-C (SIGINT) or SIGTERM while a command works. Node's default would end the process on the
 * spot: a download's temporary file left beside the target, a `--url` run's throwaway data folder
 * left in TMPDIR, and nothing said of a statement the service may still be running. Instead the
 * command's work is stopped (`stopWork`: what it started cancelled, the desk closed), one line
 * says what was left undone, and the process ends with the shell's code for the signal (128 + its
 * number: 130 for Ctrl-C). A second signal while that runs ends at once. Before a command's
 * runner listens, bin/infradesk.mjs answers a signal with the same line and code.
 */

const SIGNAL_EXIT: Readonly<Partial<Record<NodeJS.Signals, number>>> = {
  SIGINT: 130,
  SIGTERM: 143,
}

/**
 * The mark of bin/infradesk.mjs's handler, which answers a signal during the start (tsx loading
 * the CLI) with the same line and code. It is set aside while ours listen, so a signal is
 * answered once, and put back when ours stop.
 */
const INTERRUPT_AT_START = Symbol.for('infradesk.interruptAtStart')

function isStartHandler(listener: unknown): listener is (signal: NodeJS.Signals) => void {
  return typeof listener === 'function' && INTERRUPT_AT_START in listener
}

/**
 * Until the returned function is called, a signal runs `stopWork` (its answer: what the user
 * should know, e.g. a statement abandoned) and ends the process. The returned function stops
 * listening; once a signal came, it never resolves: the work that stopWork made fail (a cancelled
 * request) must not print its own error and exit first.
 */
export function stopOnInterrupt(stopWork: () => Promise<string[]>): () => Promise<void> {
  const signals = Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]
  const exitFor = (signal: NodeJS.Signals) => SIGNAL_EXIT[signal] ?? 1
  let interrupted = false
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true
    for (const each of signals) {
      process.once(each, () => process.exit(exitFor(each)))
      process.off(each, onSignal)
    }
    void stopWork()
      .catch((): string[] => [])
      .then((said) => {
        writeError(['Interrupted', ...said].join('; '))
        process.exit(exitFor(signal))
      })
  }
  // Each handover adds the new listener before it removes the old: a signal without any
  // listener for an instant would meet Node's default and kill the process.
  for (const signal of signals) process.on(signal, onSignal)
  const setAside = signals.flatMap((signal) =>
    process
      .listeners(signal)
      .filter(isStartHandler)
      .map((listener) => {
        process.off(signal, listener)
        return { signal, listener }
      }),
  )
  return () => {
    if (interrupted) return new Promise<void>(() => undefined)
    for (const { signal, listener } of setAside) process.on(signal, listener)
    for (const signal of signals) process.off(signal, onSignal)
    return Promise.resolve()
  }
}
