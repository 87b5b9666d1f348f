/*
 * `npm run bench -- export`: the app's volume download code against `curl -o`, same URL, same
 * run, same disk. The sandbox runs in its own process (so its CPU and memory are not counted
 * as the app's); this process plays the app: op 15, then writeVolumeArchive (the download
 * engine, the atomic file with its SHA-256, the size and hash checks, fsync and rename).
 * Figures: throughput of both (median of alternating runs), their ratio (target >= 0.95), and
 * this process's peak RSS growth during a download (target < 64 MiB). Nothing is asserted.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createServiceClient } from '../src/main/api'
import { AtomicFile } from '../src/main/transfers'
import { writeVolumeArchive } from '../src/main/transfers/volume-archive'
import { startSandbox } from '../test/e2e/support/processes'
import type { Bench, BenchResult, Figure } from './support'
import { median, round } from './support'

const MIB = 1024 * 1024
const RUNS = Number(process.env['BENCH_EXPORT_RUNS'] ?? 3)
const RSS_SAMPLE_MS = 10
const TARGET_RATIO = 0.95
const TARGET_RSS_MIB = 64

/** curl's wall time, and its CPU time (user + system, from bash's `time`). */
function curlDownload(url: string, file: string): Promise<{ ms: number; cpuSeconds: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(
      'bash',
      ['-c', 'TIMEFORMAT="%U %S"; time curl -sS --fail -o "$1" "$2"', 'bash', file, url],
      { stdio: ['ignore', 'inherit', 'pipe'] },
    )
    let timing = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (timing += chunk))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`curl exited ${code}: ${timing}`))
      const [user = NaN, system = NaN] = timing.trim().split('\n').at(-1)!.split(' ').map(Number)
      resolve({ ms: performance.now() - start, cpuSeconds: user + system })
    })
  })
}

async function run(): Promise<BenchResult> {
  const sandbox = await startSandbox()
  const work = mkdtempSync(join(tmpdir(), 'infradesk-bench-export-'))
  try {
    const client = createServiceClient({ baseUrl: sandbox.url, token: sandbox.tokens.admin })
    const seedResponse = await fetch(`${sandbox.url}/__sandbox/seed`, {
      headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
    })
    const seed = (await seedResponse.json()) as {
      volumes: { nodeId: string; name: string; sizeBytes: number }[]
    }
    const volume = [...seed.volumes].sort((a, b) => b.sizeBytes - a.sizeBytes)[0]
    if (!volume) throw new Error('the sandbox seeds no volume')
    // The first op 15 hashes the archive once (cached after): not part of either figure.
    const exported = (
      await client.call('exportVolume', { params: { nodeId: volume.nodeId, name: volume.name } })
    ).data
    const url = exported.downloadUrl
    if (url === undefined) throw new Error('op 15 gave no downloadUrl')
    const size = exported.sizeBytes ?? volume.sizeBytes
    console.log(`volume ${volume.name}: ${round(size / MIB)} MiB, ${RUNS} runs each, alternating`)

    const curlMs: number[] = []
    const appMs: number[] = []
    const rssGrowth: number[] = []
    /** Until the last byte was written, before fsync, the checks and the rename. */
    const appLastByteMs: number[] = []
    /** CPU seconds (user + system, all threads) per run: the cost beside the speed. */
    const curlCpu: number[] = []
    const appCpu: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const curlFile = join(work, `curl-${run}.tar.gz`)
      const curl = await curlDownload(url, curlFile)
      curlMs.push(curl.ms)
      curlCpu.push(curl.cpuSeconds)
      if (statSync(curlFile).size !== size) throw new Error('curl wrote a short file')
      rmSync(curlFile)

      global.gc?.()
      const baseline = process.memoryUsage.rss()
      let peak = baseline
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss())
      }, RSS_SAMPLE_MS)
      const start = performance.now()
      const cpuBefore = process.cpuUsage()
      const file = await AtomicFile.create(work, `app-${run}.tar.gz`)
      const written = await writeVolumeArchive({
        exported,
        client,
        file,
        collision: 'fail',
        signal: new AbortController().signal,
        reporter: {
          progress: () => {
            peak = Math.max(peak, process.memoryUsage.rss())
          },
          verifying: () => {
            appLastByteMs.push(performance.now() - start)
          },
        },
        renewUrl: () => Promise.reject(new Error('the link does not expire during a bench')),
      })
      appMs.push(performance.now() - start)
      const cpu = process.cpuUsage(cpuBefore)
      appCpu.push((cpu.user + cpu.system) / 1e6)
      clearInterval(sampler)
      peak = Math.max(peak, process.memoryUsage.rss())
      rssGrowth.push(peak - baseline)
      if (written.sha256 !== exported.sha256) throw new Error('the app wrote a wrong file')
      rmSync(written.path)
      console.log(
        `run ${run + 1}: curl ${round(size / MIB / (curlMs[run]! / 1000))} MiB/s, app ${round(size / MIB / (appMs[run]! / 1000))} MiB/s, RSS +${round((peak - baseline) / MIB)} MiB`,
      )
    }

    const curlMiBps = size / MIB / (median(curlMs) / 1000)
    const appMiBps = size / MIB / (median(appMs) / 1000)
    const ratio = appMiBps / curlMiBps
    const peakRssGrowthMiB = Math.max(...rssGrowth) / MIB
    const mibps = (ms: number[]) => round(size / MIB / (median(ms) / 1000))
    const figures: Figure[] = [
      { name: 'curl -o: throughput', unit: 'MiB/s', value: mibps(curlMs), runs: RUNS },
      { name: "app's transfer code: throughput", unit: 'MiB/s', value: mibps(appMs), runs: RUNS },
      {
        name: 'ratio app / curl',
        unit: 'x',
        value: round(ratio, 3),
        runs: RUNS,
        target: `>= ${TARGET_RATIO}`,
      },
      {
        name: 'app: peak RSS growth during a download',
        unit: 'MiB',
        value: round(peakRssGrowthMiB),
        runs: RUNS,
        min: round(Math.min(...rssGrowth) / MIB),
        max: round(peakRssGrowthMiB),
        target: `< ${TARGET_RSS_MIB} MiB`,
      },
      {
        name: 'curl: CPU time per GiB (user + system)',
        unit: 's',
        value: round(median(curlCpu) / (size / MIB / 1024)),
        runs: RUNS,
      },
      {
        name: 'app: CPU time per GiB (user + system, SHA-256 included)',
        unit: 's',
        value: round(median(appCpu) / (size / MIB / 1024)),
        runs: RUNS,
      },
      {
        name: 'app: until the last byte was written (before fsync, checks, rename)',
        unit: 'ms',
        value: round(median(appLastByteMs)),
        runs: RUNS,
      },
    ]
    return {
      figures,
      notes: [
        `volume ${volume.name}, ${size} bytes; the app's time includes streaming, SHA-256, size and hash checks, fsync and rename (op 15's answer already known)`,
        `load average while measuring: ${loadavg()
          .map((load) => load.toFixed(2))
          .join(' / ')}`,
      ],
    }
  } finally {
    await sandbox.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

export default {
  title: "Volume export: the app's transfer code against curl -o on the 1 GiB sandbox volume",
  run,
} satisfies Bench
