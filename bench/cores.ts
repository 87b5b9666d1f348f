/*
 * Puts a server and its client on separate cores, as on separate machines (Linux, taskset from
 * util-linux). A bench that runs the sandbox beside the client on a small machine otherwise
 * measures which process wins the CPU rather than the client's own speed.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { setPriority } from 'node:os'

export interface CoreSplit {
  /** Every core this process could use before: to give them back. */
  all: string
  /** For the client: this process, and what it spawns from now on. */
  client: string
  /** For the server process tree. */
  server: string
}

/**
 * The cores this process may use, cut in two halves (the server gets the larger one); null
 * with a single core or without taskset, and then nothing is pinned.
 */
export function splitCores(): CoreSplit | null {
  const shown = spawnSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' })
  if (shown.status !== 0) return null
  // "pid 123's current affinity list: 0-3,6"
  const list = shown.stdout.split(':').at(-1)?.trim() ?? ''
  const cores = list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number)
    if (from === undefined || to === undefined || !Number.isInteger(from)) return []
    return Array.from({ length: to - from + 1 }, (_, index) => from + index)
  })
  if (cores.length < 2) return null
  const clientCount = Math.floor(cores.length / 2)
  return {
    all: cores.join(','),
    client: cores.slice(0, clientCount).join(','),
    server: cores.slice(clientCount).join(','),
  }
}

/** Pins every thread of `pid` to `cores`; threads and children it makes later inherit it. */
export function pinProcess(pid: number, cores: string): void {
  const pinned = spawnSync('taskset', ['-a', '-c', '-p', cores, String(pid)], {
    encoding: 'utf8',
  })
  if (pinned.status !== 0) throw new Error(`taskset on pid ${pid} failed: ${pinned.stderr}`)
}

/** Pins `pid` and all its descendants (tsx's launcher and the program it runs). */
export function pinProcessTree(pid: number, cores: string): void {
  for (const id of [pid, ...descendantsOf(pid)]) pinProcess(id, cores)
}

function descendantsOf(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
    readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8')
      .split(' ')
      .filter((id) => id !== '')
      .map(Number),
  )
  return children.flatMap((child) => [child, ...descendantsOf(child)])
}

/**
 * Lowers every thread of `pid` and its descendants to nice `niceness` (Linux: a nice value is
 * per thread, so each thread of /proc/<id>/task). A server that must not take the client's CPU
 * when the client needs every core it has: threads it makes later inherit the value.
 */
export function deprioritizeProcessTree(pid: number, niceness: number): void {
  for (const id of [pid, ...descendantsOf(pid)]) {
    for (const thread of readdirSync(`/proc/${id}/task`)) setPriority(Number(thread), niceness)
  }
}
