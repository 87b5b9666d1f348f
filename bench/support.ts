/*
 * What every benchmark shares: timing a piece of work, the figure it produces, the result file
 * (`bench/results/<name>.json`, with the machine's core count and the Node version beside the
 * figures, so results from two machines are not compared blindly) and the printed table.
 * Nothing here asserts a time: a benchmark measures, `bench/README.md` says what to expect.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

export interface Figure {
  name: string
  /** What `value` counts: 'ms' for a median time, 'ops/s' for a rate, 'MB' for memory... */
  unit: string
  /** The headline number: the median for timings. */
  value: number
  /** How many runs the value summarises (1 for a single measurement). */
  runs: number
  min?: number
  max?: number
  /** The target the figure is held to (bench/README.md explains it), e.g. '< 2000 ms'. */
  target?: string
}

export interface BenchResult {
  figures: Figure[]
  /** Anything the reader of the result needs to know (what could not be measured here, and why). */
  notes?: string[]
}

export interface Bench {
  /** One line for `npm run bench -- --list` and the table's title. */
  title: string
  run(): Promise<BenchResult>
}

/** Runs `work` `runs` times (after `warmup` unmeasured runs) and summarises the times in ms. */
export async function measure(
  name: string,
  runs: number,
  work: () => Promise<unknown> | unknown,
  options: { warmup?: number; target?: string } = {},
): Promise<Figure> {
  for (let run = 0; run < (options.warmup ?? 0); run++) await work()
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  return summarize(name, times, options)
}

/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** `values` as one figure: their median, with min..max and how many there were. */
export function summarize(
  name: string,
  values: readonly number[],
  options: { unit?: string; target?: string } = {},
): Figure {
  return {
    name,
    unit: options.unit ?? 'ms',
    value: round(median(values)),
    runs: values.length,
    min: round(Math.min(...values)),
    max: round(Math.max(...values)),
    ...(options.target === undefined ? {} : { target: options.target }),
  }
}

/** How many times `work` completes per second, sequentially, over at least `durationMs`. */
export async function rate(
  name: string,
  durationMs: number,
  work: () => Promise<unknown> | unknown,
  options: { target?: string } = {},
): Promise<Figure> {
  const start = performance.now()
  let count = 0
  while (performance.now() - start < durationMs) {
    await work()
    count++
  }
  const seconds = (performance.now() - start) / 1000
  return {
    name,
    unit: 'ops/s',
    value: Math.round(count / seconds),
    runs: count,
    ...(options.target === undefined ? {} : { target: options.target }),
  }
}

export function round(value: number, digits = 2): number {
  return Math.round(value * 10 ** digits) / 10 ** digits
}

export function machine() {
  return {
    node: process.version,
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryMB: Math.round(totalmem() / 1024 / 1024),
    platform: `${process.platform}-${process.arch}`,
  }
}

export const RESULTS_DIR = join(import.meta.dirname, 'results')

/** Writes `bench/results/<name>.json` and returns its path. */
export function writeResult(name: string, result: BenchResult, elapsedMs: number): string {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const file = join(RESULTS_DIR, `${name}.json`)
  const document = {
    bench: name,
    recordedAt: new Date().toISOString(),
    machine: machine(),
    elapsedMs: Math.round(elapsedMs),
    figures: result.figures,
    ...(result.notes && result.notes.length > 0 ? { notes: result.notes } : {}),
  }
  writeFileSync(file, JSON.stringify(document, null, 2) + '\n')
  return file
}

/** A plain-text table of the figures, one row each. */
export function formatTable(title: string, figures: Figure[]): string {
  const rows = figures.map((figure) => [
    figure.name,
    `${figure.value} ${figure.unit}`,
    figure.min === undefined ? '' : `${figure.min}..${figure.max ?? ''}`,
    String(figure.runs),
    figure.target ?? '',
  ])
  const header = ['figure', 'value', 'min..max', 'n', 'target']
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')
  return [
    `\n== ${title}`,
    line(header),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(line),
  ].join('\n')
}
