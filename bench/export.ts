/*
 * `npm run bench -- export`: the app's volume download code against `curl -o`, same URL, same
 * run, same disk. The sandbox runs in its own process (so its CPU and memory are not counted
 * as the app's); this process plays the app: op 15, then writeVolumeArchive (the download
 * engine, the atomic file with its SHA-256, the size and hash checks, fsync and rename).
 * Figures: throughput of both (median of alternating runs), their ratio (target >= 0.95), and
 * this process's peak RSS growth during a download (target < 64 MiB). Nothing is asserted.
 *
 * The sandbox gets half of the cores and the client (this process, and curl, which inherits
 * its cores) the other half, as a service on its own machine would: on 2 cores a sandbox that
 * spends ~4 s of CPU per GiB generating the archive otherwise takes the CPU the client needs,
 * and the ratio measures which process wins the cores, not the transfer code (see README).
 *
 * Then the same download through a proxy on loopback (bench/splice-proxy.py in its own
 * process, on the client's cores: see PROXY_CORES): the app with HTTP_PROXY set
 * against the app direct, alternating, their ratio (target >= 0.9), and curl through the same
 * proxy for the proxy's own ceiling. The proxy moves bytes with splice(2): a relay that copies
 * them (tinyproxy, Node's pipes) was itself the limit on a core shared with the sandbox
 * (bench/README.md). The sandbox speaks http, so this is the absolute-form path of
 * raw-http.ts; CONNECT tunnels are tested, not timed.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createServiceClient, type ServiceClient } from '../src/main/api'
import { createNetworkStack, DEFAULT_PROFILE_NETWORK } from '../src/main/net'
import type { VolumeExport } from '../src/shared/api/resources'
import { AtomicFile } from '../src/main/transfers'
import { writeVolumeArchive } from '../src/main/transfers/volume-archive'
import { startSandbox } from '../test/e2e/support/processes'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { pinProcess, pinProcessTree, splitCores } from './cores'
import { oneThreadDownload } from './one-thread-download'
import type { Bench, BenchResult, Figure } from './support'
import { median, round } from './support'

const MIB = 1024 * 1024
const RUNS = Number(process.env['BENCH_EXPORT_RUNS'] ?? 5)
/**
 * Whose cores the proxy shares: two cores give it none of its own. `client` by default: the app
 * then pays for the proxy's hop on its own core, harder for the app than a proxy on another
 * machine; `server` measures the sandbox instead (its archive generation is core-bound, curl
 * through the proxy loses as much as the app there; bench/README.md).
 */
const PROXY_CORES = z
  .enum(['server', 'client', 'all'])
  .parse(process.env['BENCH_PROXY_CORES'] ?? 'client')
/**
 * `BENCH_EXPORT_CC=cubic` (or another algorithm the kernel has): the machine's TCP congestion
 * control is set to it for this bench (root only: /proc/sys/net/ipv4/tcp_congestion_control)
 * and given back after. Unset, the machine's own is measured and named. The sandbox's sockets
 * take the machine's algorithm (Node cannot choose it per socket), and bbr's pacing moves the
 * target's figure (bench/results/HISTORY.md, export).
 */
const CONGESTION_CONTROL = process.env['BENCH_EXPORT_CC']?.trim() || null
const CONGESTION_CONTROL_FILE = '/proc/sys/net/ipv4/tcp_congestion_control'
const RSS_SAMPLE_MS = 10
const TARGET_RATIO = 0.95
const TARGET_RSS_MIB = 64
const TARGET_PROXY_RATIO = 0.9

/**
 * curl's wall time, and its CPU time (user + system, from bash's `time`); `proxy`: via it.
 * `sync`: then `sync FILE` (an fsync of the file), timed with it: curl made as durable as the
 * app's file, which is fsynced before it takes its name.
 */
function curlDownload(
  url: string,
  file: string,
  proxy = '',
  sync = false,
): Promise<{ ms: number; cpuSeconds: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(
      'bash',
      [
        '-c',
        `TIMEFORMAT="%U %S"; time { curl -sS --fail --proxy "$3" -o "$1" "$2"${sync ? ' && sync "$1"' : ''}; }`,
        'bash',
        file,
        url,
        proxy,
      ],
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

/** One curl download and one app download of the same URL, measured. */
interface Pair {
  curlMs: number
  /** CPU seconds (user + system, all threads): the cost beside the speed. */
  curlCpu: number
  /** curl, then `sync` of its file: the same durability as the app's fsynced file. */
  curlSyncMs: number
  curlSyncCpu: number
  appMs: number
  appCpu: number
  /** Of appCpu, what main's thread (its event loop) spent. */
  appMainCpu: number
  /** Until the last byte was written, before fsync, the checks and the rename. */
  appLastByteMs: number
  rssGrowth: number
  /** One thread reads, writes, hashes and fsyncs (bench/one-thread-download.ts). */
  floorMs: number
}

async function downloadPair(
  client: ServiceClient,
  exported: VolumeExport,
  work: string,
  name: string,
): Promise<Pair> {
  const url = exported.downloadUrl!
  const size = exported.sizeBytes!
  const curlFile = join(work, `curl-${name}.tar.gz`)
  const curl = await curlDownload(url, curlFile)
  if (statSync(curlFile).size !== size) throw new Error('curl wrote a short file')
  rmSync(curlFile)
  const curlSync = await curlDownload(url, curlFile, '', true)
  if (statSync(curlFile).size !== size) throw new Error('curl wrote a short file')
  rmSync(curlFile)

  const app = await appDownload(client, exported, work, name)
  const floorFile = join(work, `floor-${name}.tar.gz`)
  const floor = await oneThreadDownload(url, floorFile)
  if (floor.size !== size || floor.sha256 !== exported.sha256) {
    throw new Error('the floor download wrote a wrong file')
  }
  rmSync(floorFile)
  return {
    curlMs: curl.ms,
    curlCpu: curl.cpuSeconds,
    curlSyncMs: curlSync.ms,
    curlSyncCpu: curlSync.cpuSeconds,
    appMs: app.ms,
    appCpu: app.cpuSeconds,
    appMainCpu: app.mainCpuSeconds,
    appLastByteMs: app.lastByteMs,
    rssGrowth: app.rssGrowth,
    floorMs: floor.ms,
  }
}

interface AppDownload {
  ms: number
  cpuSeconds: number
  mainCpuSeconds: number
  lastByteMs: number
  rssGrowth: number
}

/** One download by the app's transfer code (op 15's answer known), checked and removed. */
async function appDownload(
  client: ServiceClient,
  exported: VolumeExport,
  work: string,
  name: string,
): Promise<AppDownload> {
  global.gc?.()
  const baseline = process.memoryUsage.rss()
  let peak = baseline
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, RSS_SAMPLE_MS)
  const start = performance.now()
  let lastByteMs = NaN
  const cpuBefore = process.cpuUsage()
  const mainCpuBefore = mainThreadCpuSeconds()
  const file = await AtomicFile.create(work, `app-${name}.tar.gz`)
  const written = await writeVolumeArchive({
    exported,
    client,
    file,
    collision: 'fail',
    signal: new AbortController().signal,
    reporter: {
      // No RSS read here: one per 256 KiB write cost the app ~0.3 s of CPU per GiB (the
      // 10 ms sampler sees the peak; the buffers are reused, so RSS moves slowly).
      progress: () => undefined,
      verifying: () => {
        lastByteMs = performance.now() - start
      },
    },
    renewUrl: () => Promise.reject(new Error('the link does not expire during a bench')),
  })
  const appMs = performance.now() - start
  const cpu = process.cpuUsage(cpuBefore)
  const mainCpu = mainThreadCpuSeconds() - mainCpuBefore
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage.rss())
  if (written.sha256 !== exported.sha256) throw new Error('the app wrote a wrong file')
  rmSync(written.path)
  return {
    ms: appMs,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    mainCpuSeconds: mainCpu,
    lastByteMs,
    rssGrowth: peak - baseline,
  }
}

/**
 * CPU seconds (user + system) of this process's main thread, the one that runs the event loop
 * (Linux: /proc/self/task/<pid>/stat, in clock ticks of 10 ms); NaN elsewhere.
 */
function mainThreadCpuSeconds(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return NaN
  }
}

/**
 * What SHA-256 costs on this CPU (CPU seconds per GiB, 256 KiB updates as the app makes):
 * the part of the app's CPU that curl has no counterpart for, and the one that differs most
 * between CPUs (with or without the SHA extensions).
 */
function sha256SecondsPerGiB(): number {
  const chunk = Buffer.alloc(256 * 1024, 7)
  const hash = createHash('sha256')
  const before = process.cpuUsage()
  for (let done = 0; done < 256 * MIB; done += chunk.length) hash.update(chunk)
  hash.digest()
  const used = process.cpuUsage(before)
  return ((used.user + used.system) / 1e6) * 4
}

/** The CPU's model and whether it has the SHA extensions (x86 `sha_ni`, Arm `sha2`). */
function cpuDescription(): string {
  const model = cpus()[0]?.model ?? 'unknown'
  let flags: string
  try {
    flags = readFileSync('/proc/cpuinfo', 'utf8')
  } catch {
    return model
  }
  const sha = /\b(sha_ni|sha2)\b/.test(flags) ? 'SHA extensions' : 'no SHA extensions'
  return `${model}, ${sha}`
}

/**
 * The machine's TCP congestion control, which the sandbox's socket uses (Node cannot choose
 * it per socket). BBR paces every socket with a timer; on loopback it slows the sandbox's
 * sends to a reader that drains unevenly, so the target's figure moves with this setting
 * (bench/results/HISTORY.md, export).
 */
function congestionControl(): string {
  let algorithm: string
  try {
    algorithm = readFileSync(CONGESTION_CONTROL_FILE, 'utf8').trim()
  } catch {
    return `unknown (no ${CONGESTION_CONTROL_FILE})`
  }
  const set = CONGESTION_CONTROL === null ? "the machine's" : 'set by BENCH_EXPORT_CC'
  return `${algorithm}, ${set} (${algorithm === 'bbr' ? 'paces each socket by timer' : 'no pacing'})`
}

/** Sets the machine's congestion control for this bench; returns how to give the old one back. */
function useCongestionControl(algorithm: string): () => void {
  const before = readFileSync(CONGESTION_CONTROL_FILE, 'utf8').trim()
  try {
    writeFileSync(CONGESTION_CONTROL_FILE, algorithm)
  } catch (error) {
    throw new Error(
      `BENCH_EXPORT_CC=${algorithm}: cannot set ${CONGESTION_CONTROL_FILE} (root only; the kernel offers: ${readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8').trim()}): ${String(error)}`,
      { cause: error },
    )
  }
  return () => writeFileSync(CONGESTION_CONTROL_FILE, before)
}

/** The relay proxy (bench/splice-proxy.py) in its own process, and the request lines it saw. */
interface RelayProxy {
  url: string
  pid: number
  requests: string[]
  stop(): void
}

function startRelayProxy(): Promise<RelayProxy> {
  const script = fileURLToPath(new URL('./splice-proxy.py', import.meta.url))
  const child = spawn('python3', [script], { stdio: ['ignore', 'pipe', 'inherit'] })
  const requests: string[] = []
  return new Promise((resolve, reject) => {
    let buffered = ''
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the relay proxy exited (${code})`)))
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) {
        if (line.startsWith('REQUEST ')) requests.push(line.slice('REQUEST '.length))
        const ready = /^PROXY_READY (\d+)$/.exec(line)
        if (ready) {
          resolve({
            url: `http://127.0.0.1:${ready[1]}`,
            pid: child.pid ?? 0,
            requests,
            stop: () => child.kill('SIGTERM'),
          })
        }
      }
    })
  })
}

/**
 * The app direct and the app through the proxy, alternating, RUNS each, and curl through the
 * proxy: throughputs and the ratio. The proxy must have seen every proxied download, or the
 * figure would be a lie.
 */
async function proxyFigures(
  direct: ServiceClient,
  proxy: RelayProxy,
  exported: VolumeExport,
  work: string,
): Promise<Figure[]> {
  const size = exported.sizeBytes ?? 0
  const url = exported.downloadUrl!
  const proxied = createServiceClient({
    baseUrl: direct.baseUrl,
    token: 'unused',
    network: createNetworkStack({ env: { HTTP_PROXY: proxy.url } }).forProfile(
      DEFAULT_PROFILE_NETWORK,
    ),
  })
  const before = proxy.requests.length
  const directMs: number[] = []
  const proxiedMs: number[] = []
  const curlMs: number[] = []
  for (let index = 0; index < RUNS; index++) {
    directMs.push((await appDownload(direct, exported, work, `direct-${index}`)).ms)
    proxiedMs.push((await appDownload(proxied, exported, work, `proxied-${index}`)).ms)
    const curlFile = join(work, `curl-proxied-${index}.tar.gz`)
    curlMs.push((await curlDownload(url, curlFile, proxy.url)).ms)
    rmSync(curlFile)
    console.log(
      `proxy, run ${index + 1}: app direct ${mibPerSecond(size, directMs.at(-1)!)} MiB/s, app through the proxy ${mibPerSecond(size, proxiedMs.at(-1)!)} MiB/s, curl through the proxy ${mibPerSecond(size, curlMs.at(-1)!)} MiB/s`,
    )
  }
  const carried = proxy.requests
    .slice(before)
    .filter((line) => line.startsWith(`GET ${new URL(url).origin}/`))
  if (carried.length < 2 * RUNS) throw new Error('the proxied downloads did not go through it')
  const directMedian = median(directMs)
  const proxiedMedian = median(proxiedMs)
  const figure = (name: string, ms: number): Figure => ({
    name,
    unit: 'MiB/s',
    value: mibPerSecond(size, ms),
    runs: RUNS,
  })
  return [
    figure('proxy: app direct: throughput', directMedian),
    figure('proxy: app through the proxy on loopback: throughput', proxiedMedian),
    {
      name: 'proxy: ratio app through the proxy / app direct',
      unit: 'x',
      value: round(directMedian / proxiedMedian, 3),
      runs: RUNS,
      target: `>= ${TARGET_PROXY_RATIO}`,
    },
    figure("proxy: curl -o through the proxy (the proxy's ceiling)", median(curlMs)),
  ]
}

function mibPerSecond(bytes: number, ms: number): number {
  return round(bytes / MIB / (ms / 1000))
}

function valuesOf(pairs: Pair[], key: keyof Pair): number[] {
  return pairs.map((pair) => pair[key])
}

/**
 * curl's and the app's throughput (medians of `pairs`, of `size` bytes each) and their ratio,
 * named with `prefix`; no pairs, no figures. `ratio` names the ratio and gives its target.
 */
function throughputFigures(
  pairs: Pair[],
  size: number,
  prefix: string,
  ratio: { name: string; target?: string },
): Figure[] {
  if (pairs.length === 0) return []
  const mibps = (ms: number) => mibPerSecond(size, ms)
  const curlMs = median(valuesOf(pairs, 'curlMs'))
  const appMs = median(valuesOf(pairs, 'appMs'))
  return [
    {
      name: `${prefix}curl -o: throughput`,
      unit: 'MiB/s',
      value: mibps(curlMs),
      runs: pairs.length,
    },
    {
      name: `${prefix}app's transfer code: throughput`,
      unit: 'MiB/s',
      value: mibps(appMs),
      runs: pairs.length,
    },
    {
      name: `${prefix}${ratio.name}`,
      unit: 'x',
      value: round(curlMs / appMs, 3),
      runs: pairs.length,
      ...(ratio.target === undefined ? {} : { target: ratio.target }),
    },
  ]
}

async function run(): Promise<BenchResult> {
  // Before the sandbox listens: its sockets take the algorithm in force when they are made.
  const restoreCongestionControl =
    CONGESTION_CONTROL === null ? () => undefined : useCongestionControl(CONGESTION_CONTROL)
  let sandbox: Awaited<ReturnType<typeof startSandbox>>
  try {
    sandbox = await startSandbox()
  } catch (error) {
    restoreCongestionControl()
    throw error
  }
  const work = mkdtempSync(join(tmpdir(), 'infradesk-bench-export-'))
  const cores = splitCores()
  try {
    // Direct whatever this machine's HTTP_PROXY says: the proxy figures set their own.
    const client = createServiceClient({
      baseUrl: sandbox.url,
      token: sandbox.tokens.admin,
      network: createNetworkStack({ env: {} }).forProfile(DEFAULT_PROFILE_NETWORK),
    })
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
    if (exported.downloadUrl === undefined) throw new Error('op 15 gave no downloadUrl')
    const size = exported.sizeBytes ?? volume.sizeBytes
    const sized = { ...exported, sizeBytes: size }
    // The download worker starts with the process's first download (a thread, its modules):
    // a small volume's download starts it here, so the pairs measure downloads, and what the
    // start costs is its own figure.
    const smallest = [...seed.volumes].sort((a, b) => a.sizeBytes - b.sizeBytes)[0] ?? volume
    const smallExport = (
      await client.call('exportVolume', {
        params: { nodeId: smallest.nodeId, name: smallest.name },
      })
    ).data
    const workerStart = await appDownload(client, smallExport, work, 'warm-up')
    console.log(
      `download worker started by a ${round(smallest.sizeBytes / MIB)} MiB download: RSS +${round(workerStart.rssGrowth / MIB)} MiB`,
    )
    const mibps = (ms: number) => mibPerSecond(size, ms)
    const perGiB = (seconds: number) => round(seconds / (size / MIB / 1024))
    console.log(`volume ${volume.name}: ${round(size / MIB)} MiB, ${RUNS} runs each, alternating`)
    const cpu = cpuDescription()
    const sha256PerGiB = sha256SecondsPerGiB()
    const tcp = congestionControl()
    console.log(`CPU: ${cpu}; SHA-256 alone: ${round(sha256PerGiB)} s of CPU per GiB`)
    console.log(`TCP congestion control (the sandbox's sends): ${tcp}`)

    /** RUNS alternating pairs, each printed as it ends (`label` names the core setting). */
    const measurePairs = async (label: string): Promise<Pair[]> => {
      const pairs: Pair[] = []
      for (let index = 0; index < RUNS; index++) {
        const pair = await downloadPair(
          client,
          sized,
          work,
          `${label.replace(/\W+/g, '-')}-${index}`,
        )
        pairs.push(pair)
        console.log(
          `${label}, run ${index + 1}: curl ${mibps(pair.curlMs)} MiB/s, curl + sync ${mibps(pair.curlSyncMs)} MiB/s, app ${mibps(pair.appMs)} MiB/s, one-thread floor ${mibps(pair.floorMs)} MiB/s, RSS +${round(pair.rssGrowth / MIB)} MiB; CPU s/GiB curl ${perGiB(pair.curlCpu)}, curl + sync ${perGiB(pair.curlSyncCpu)}, app ${perGiB(pair.appCpu)} (main thread ${perGiB(pair.appMainCpu)})`,
        )
      }
      return pairs
    }
    if (cores) {
      pinProcess(process.pid, cores.client)
      pinProcessTree(sandbox.pid, cores.server)
    }
    const pinned = await measurePairs(cores ? 'own cores' : 'not pinned')
    const relay = await startRelayProxy()
    let viaProxy: Figure[]
    try {
      if (cores) pinProcess(relay.pid, cores[PROXY_CORES])
      viaProxy = await proxyFigures(client, relay, sized, work)
    } finally {
      relay.stop()
    }
    // For reference: the same pairs with every process free to use every core.
    let shared: Pair[] = []
    if (cores) {
      pinProcess(process.pid, cores.all)
      pinProcessTree(sandbox.pid, cores.all)
      shared = await measurePairs('shared cores')
    }

    const rss = valuesOf(pinned, 'rssGrowth')
    const figures: Figure[] = [
      ...throughputFigures(pinned, size, '', {
        name: 'ratio app / curl',
        target: `>= ${TARGET_RATIO}`,
      }),
      {
        name: 'curl -o + sync: throughput (as durable as the app)',
        unit: 'MiB/s',
        value: mibps(median(valuesOf(pinned, 'curlSyncMs'))),
        runs: pinned.length,
      },
      {
        name: 'ratio app / (curl -o + sync)',
        unit: 'x',
        value: round(median(valuesOf(pinned, 'curlSyncMs')) / median(valuesOf(pinned, 'appMs')), 3),
        runs: pinned.length,
      },
      {
        name: 'floor: one thread reads, writes, hashes, fsyncs (no hand-off): throughput',
        unit: 'MiB/s',
        value: mibps(median(valuesOf(pinned, 'floorMs'))),
        runs: pinned.length,
      },
      {
        name: 'ratio floor / curl (what any verifying design can reach here)',
        unit: 'x',
        value: round(median(valuesOf(pinned, 'curlMs')) / median(valuesOf(pinned, 'floorMs')), 3),
        runs: pinned.length,
      },
      {
        name: 'app: peak RSS growth during a download',
        unit: 'MiB',
        value: round(Math.max(...rss) / MIB),
        runs: RUNS,
        min: round(Math.min(...rss) / MIB),
        max: round(Math.max(...rss) / MIB),
        target: `< ${TARGET_RSS_MIB} MiB`,
      },
      {
        name: 'download worker: RSS growth of its start (once per process, a small download)',
        unit: 'MiB',
        value: round(workerStart.rssGrowth / MIB),
        runs: 1,
      },
      {
        name: 'curl: CPU time per GiB (user + system)',
        unit: 's',
        value: perGiB(median(valuesOf(pinned, 'curlCpu'))),
        runs: RUNS,
      },
      {
        name: 'curl -o + sync: CPU time per GiB',
        unit: 's',
        value: perGiB(median(valuesOf(pinned, 'curlSyncCpu'))),
        runs: RUNS,
      },
      {
        name: 'app: CPU time per GiB (user + system, SHA-256 included)',
        unit: 's',
        value: perGiB(median(valuesOf(pinned, 'appCpu'))),
        runs: RUNS,
      },
      {
        name: "app: of which main's thread (the event loop)",
        unit: 's',
        value: perGiB(median(valuesOf(pinned, 'appMainCpu'))),
        runs: RUNS,
      },
      {
        name: 'SHA-256 alone on this CPU: CPU time per GiB',
        unit: 's',
        value: round(sha256PerGiB),
        runs: 1,
      },
      {
        name: 'app: until the last byte was written (before fsync, checks, rename)',
        unit: 'ms',
        value: round(median(valuesOf(pinned, 'appLastByteMs'))),
        runs: RUNS,
      },
    ]
    figures.push(...viaProxy)
    figures.push(
      ...throughputFigures(shared, size, 'shared cores: ', {
        name: 'ratio app / curl (no target: the CPU is the limit)',
      }),
    )
    return {
      figures,
      notes: [
        `CPU: ${cpu}; the target reads "ratio app / curl" (curl -o without fsync); "ratio app / (curl -o + sync)" is the same durability`,
        `TCP congestion control: ${tcp}; with bbr the sandbox's sends are paced by timer, more often to the app than to curl (bench/results/HISTORY.md, export)`,
        `volume ${volume.name}, ${size} bytes; the app's time includes streaming, SHA-256, size and hash checks, fsync and rename (op 15's answer already known)`,
        cores
          ? `cores: sandbox on ${cores.server}; this process and curl on ${cores.client} (the "shared cores" runs: all on ${cores.all})`
          : 'cores: not pinned (a single core, or no taskset)',
        `proxy: bench/splice-proxy.py (splice(2), no copy) ${cores ? `on ${cores[PROXY_CORES]} (BENCH_PROXY_CORES=${PROXY_CORES})` : 'not pinned'}; the app with HTTP_PROXY, absolute-form requests (the sandbox speaks http)`,
        `load average while measuring: ${loadavg()
          .map((load) => load.toFixed(2))
          .join(' / ')}`,
      ],
    }
  } finally {
    // The other benches run in this process after this one: give it every core back.
    if (cores) pinProcess(process.pid, cores.all)
    restoreCongestionControl()
    await sandbox.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

export default {
  title: "Volume export: the app's transfer code against curl -o on the 1 GiB sandbox volume",
  run,
} satisfies Bench
