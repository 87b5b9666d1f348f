/*
 * `npm run bench` runs every benchmark; `npm run bench -- NAME [NAME...]` runs the ones named;
 * `npm run bench -- --list` lists them. Each writes bench/results/<name>.json (figures, core
 * count, Node version) and prints a table. Not a test: nothing here asserts a time.
 *
 * To add a benchmark: write bench/<name>.ts with `export default { title, run } satisfies Bench`
 * and add ONE line to BENCHES below. Modules load lazily, so one bench's imports never slow or
 * break another.
 */
import { performance } from 'node:perf_hooks'
import type { Bench } from './support'
import { formatTable, machine, writeResult } from './support'

const BENCHES: Record<string, () => Promise<{ default: Bench }>> = {
  core: () => import('./core'),
  cache: () => import('./cache'),
  bridge: () => import('./bridge'),
  lists: () => import('./lists'),
  startup: () => import('./startup'),
  export: () => import('./export'),
  sql: () => import('./sql'),
  stalls: () => import('./stalls'),
  overview: () => import('./overview'),
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--list')) {
    for (const [name, load] of Object.entries(BENCHES)) {
      console.log(`${name.padEnd(12)} ${(await load()).default.title}`)
    }
    return 0
  }
  const unknown = argv.filter((name) => !Object.hasOwn(BENCHES, name))
  if (unknown.length > 0) {
    console.error(
      `Unknown benchmark ${unknown.map((name) => `"${name}"`).join(', ')}; ` +
        `known: ${Object.keys(BENCHES).join(', ')}`,
    )
    return 2
  }
  const selected = argv.length > 0 ? argv : Object.keys(BENCHES)
  const { node, cores, cpu } = machine()
  console.log(`Node ${node}, ${cores} cores (${cpu}); running: ${selected.join(', ')}`)
  let failed = 0
  for (const name of selected) {
    const load = BENCHES[name]
    if (!load) continue
    const started = performance.now()
    try {
      const bench = (await load()).default
      const result = await bench.run()
      const file = writeResult(name, result, performance.now() - started)
      console.log(formatTable(`${name}: ${bench.title}`, result.figures))
      for (const note of result.notes ?? []) console.log(`note: ${note}`)
      console.log(`written to ${file}`)
    } catch (error) {
      // One broken benchmark must not hide the others' figures.
      failed++
      console.error(`\n== ${name} FAILED:`, error)
    }
  }
  return failed === 0 ? 0 : 1
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
