/**
 * `npm run bench [-- --quick] [-- --clients 1000,5000] [-- --systems "bare ws"] [-- --no-install]
 *  [-- --phases sockets,rounds,rest] [-- --no-pin]`
 *
 * The harness's entry: its options and the order of its rows, each row family in a module of its own
 * (socket-ramps, rounds, rest-rounds and hostile-bodies, proxied-contention, signed-in-uploads). Prints
 * the figures as RESULTS.md words them, writes results/bench-<time>.json and (full runs, or --results-md) RESULTS.md;
 * a run of some phases or systems, or at other socket counts, is no full run.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { gatewayProcessEnv } from '../../scripts/gateway-env.mjs'
import { isMainModule, loadtestsDir, pinSelf } from './child-process'
import { FED_IDLE_SYSTEMS, runFedIdle } from './fed-idle'
import { HOSTILE_ROW, runHostileBodies } from './hostile-bodies'
import { buildNativeGenerator } from './native-client'
import { busyPercent, readMachineTicks, stealPercent } from './proc-stats'
import { runProxiedContention } from './proxied-contention'
import { renderResultsMd, writeResultsMd } from './results-md'
import { runRestRounds } from './rest-rounds'
import { restTargets, withSandbox, type Cores } from './rest-targets'
import { ROUND_SYSTEMS, runRounds } from './rounds'
import { defaultScenario, type Scenario } from './scenario'
import { runSignedInUploads } from './signed-in-uploads'
import { runSocketRamps } from './socket-ramps'
import {
  GATEWAY,
  socketSystems,
  variantScenario,
  withRedis,
  type SocketSystem,
  type SocketSystemContext,
} from './socket-systems'
import { BENCH_PHASES, type BenchOptions, type BenchPhase, type BenchResult } from './types'
import { ensureWrk } from './wrk'

/** Whether `--systems` (`only`) selects a system, target or row by its name: any of its parts, in any case. */
export function selected(name: string, only: string[] | undefined): boolean {
  return !only || only.some((part) => name.toLowerCase().includes(part.toLowerCase()))
}

type Phase = <T>(name: string, work: () => Promise<T>) => Promise<T>

/** The socket ramps of every selected system in turn, then the interleaved rounds of the compared ones. */
async function runSocketPhases(
  baseCtx: Omit<SocketSystemContext, 'scenario'>,
  options: BenchOptions,
  phase: Phase,
  log: (line: string) => void,
): Promise<Pick<BenchResult, 'socket' | 'capacity' | 'systemScenarios' | 'rounds' | 'fedIdle'>> {
  const systemScenarios: BenchResult['systemScenarios'] = {}
  const scenarioOf = (system: SocketSystem): Scenario => {
    const scenario = variantScenario(options.scenario, system.variant)
    systemScenarios[system.name] = { listRate: scenario.listRate, depth: scenario.rates.DEPTH > 0 }
    return scenario
  }
  const ramped = socketSystems.filter((s) => !s.roundsOnly && selected(s.name, options.only))
  const { socket, capacity } = options.phases.includes('sockets')
    ? await phase('sockets', () =>
        runSocketRamps(
          ramped.map((system) => ({ system, ctx: { ...baseCtx, scenario: scenarioOf(system) } })),
          options,
          log,
        ),
      )
    : { socket: [], capacity: [] }
  const named = (names: readonly string[]): SocketSystem[] =>
    names
      .map((name) => socketSystems.find((system) => system.name === name)!)
      .filter((system) => selected(system.name, options.only))
  const roundSystems =
    options.phases.includes('rounds') && options.socketRounds > 0 ? named(ROUND_SYSTEMS) : []
  roundSystems.forEach(scenarioOf)
  const reference = capacity.find((report) => report.system === GATEWAY)
  const rounds = roundSystems.length
    ? await phase('rounds', () => runRounds(roundSystems, baseCtx, reference, options, log))
    : undefined
  const idleSystems = options.phases.includes('idle') ? named(FED_IDLE_SYSTEMS) : []
  idleSystems.forEach(scenarioOf)
  const fedIdle = idleSystems.length
    ? await phase('idle', () => runFedIdle(idleSystems, baseCtx, options, log))
    : undefined
  return { socket, capacity, systemScenarios, rounds, fedIdle }
}

/**
 * The REST rounds through wrk, then the hostile bodies. Without wrk every REST row says why: a Node
 * generator would run out of its core before the targets do, so it could measure none of them.
 */
async function runRestPhase(
  cores: Cores,
  options: BenchOptions,
  phase: Phase,
  log: (line: string) => void,
): Promise<Pick<BenchResult, 'rest' | 'hostile'>> {
  const wrk = ensureWrk(options.installMissing)
  return withSandbox(cores, options, async (restCtx) => {
    const targets = restTargets.filter((t) => selected(t.name, options.only))
    const rest = wrk.ok
      ? await phase('rest', () => runRestRounds(targets, restCtx, options, log))
      : targets.map((target) => ({
          target: target.name,
          note: target.note,
          ok: false,
          unavailable: wrk.reason,
        }))
    const hostile = selected(HOSTILE_ROW, options.only)
      ? await phase('hostile', () => runHostileBodies(restCtx, options, log))
      : undefined
    return { rest, hostile }
  })
}

export async function runBench(
  options: BenchOptions,
  log: (line: string) => void = console.log,
): Promise<BenchResult> {
  const began = performance.now()
  // The socket windows' generator is compiled first: without a compiler the run stops here, not an hour in.
  if (options.phases.some((name) => name === 'sockets' || name === 'rounds'))
    log(`native load generator: built ${path.relative(loadtestsDir, buildNativeGenerator())}`)
  const runId = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`
  // Counted before pinning: afterwards this process sees only its own core.
  const cores = os.availableParallelism()
  const serverCpus = options.pin && cores > 1 && pinSelf('0') ? '1' : undefined
  const startedAt = new Date().toISOString()
  const loadAtStart = os.loadavg()[0]!
  // what else keeps the cores busy right now: the load average still remembers work that has ended
  const idleCheck = readMachineTicks()
  await sleep(2000)
  const ticksAtStart = readMachineTicks()
  log(
    serverCpus
      ? 'pinning: load generator, tick feed, sandbox and Redis on core 0, every server under test on core 1'
      : `${options.pin ? 'pinning unavailable' : 'no pinning (--no-pin)'}: load generator and servers share the cores`,
  )

  const generatorCpus = serverCpus ? '0' : undefined
  const phaseSeconds: Record<string, number> = {}
  const phase: Phase = async (name, work) => {
    const start = performance.now()
    try {
      return await work()
    } finally {
      phaseSeconds[name] = (performance.now() - start) / 1000
    }
  }
  const placement: Cores = { runId, serverCpus, generatorCpus }
  const { result: rows, redis } = await withRedis(options.redisUrl, generatorCpus, async (brokers) => {
    const sockets = await runSocketPhases({ runId, serverCpus, ...brokers }, options, phase, log)
    const rest = options.phases.includes('rest')
      ? await runRestPhase(placement, options, phase, log)
      : { rest: [] }
    const proxied = options.phases.includes('proxied')
      ? await phase('proxied', () => runProxiedContention(placement, options, log))
      : undefined
    const uploads = options.phases.includes('uploads')
      ? await phase('uploads', () => runSignedInUploads(placement, options, log))
      : {}
    return { sockets, rest: { ...rest, proxied, ...uploads } }
  })

  const cpus = os.cpus()
  const { outFile: _outFile, resultsMd: _resultsMd, ...recordedOptions } = options
  return {
    runId,
    startedAt,
    command: ['npm run bench --', ...process.argv.slice(2)].join(' ').replace(/ --$/, ''),
    durationSeconds: (performance.now() - began) / 1000,
    machine: {
      cpuModel: cpus[0]?.model ?? 'unknown',
      cores,
      memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
      node: process.version,
      kernel: os.release(),
    },
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    busyBeforePercent: busyPercent(idleCheck, ticksAtStart),
    stealPercent: stealPercent(ticksAtStart, readMachineTicks()),
    pinning: serverCpus ? { client: generatorCpus!, server: serverCpus } : 'unavailable',
    baselinesBuilt: true,
    serverEnv: gatewayProcessEnv(),
    options: recordedOptions,
    ...rows.sockets,
    redis,
    phaseSeconds,
    ...rows.rest,
  }
}

export function optionsFromArgs(argv: string[]): BenchOptions & { printOptions: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      clients: { type: 'string' },
      seconds: { type: 'string' },
      systems: { type: 'string' },
      'no-install': { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      out: { type: 'string' },
      'results-md': { type: 'string' },
      'redis-url': { type: 'string' },
      'print-options': { type: 'boolean', default: false },
      phases: { type: 'string', default: BENCH_PHASES.join(',') },
    },
  })
  const quick = values.quick ?? false
  const measureSeconds = values.seconds ? Number(values.seconds) : quick ? 0.7 : 6
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const clientCounts = values.clients ? values.clients.split(',').map(Number) : quick ? [200] : [10000]
  if (clientCounts.some((count) => !Number.isInteger(count) || count < 1))
    throw new Error(`--clients takes whole numbers above 0, got "${values.clients}"`)
  if (!(measureSeconds > 0)) throw new Error(`--seconds takes a number above 0, got "${values.seconds}"`)
  const phases = values.phases.split(',').map((name) => name.trim())
  if (!phases.every((name): name is BenchPhase => (BENCH_PHASES as readonly string[]).includes(name)))
    throw new Error(`--phases takes some of ${BENCH_PHASES.join(', ')}, got "${values.phases}"`)
  return {
    printOptions: values['print-options'] ?? false,
    quick,
    clientCounts,
    warmupMs: quick ? 300 : 2000,
    measureMs: measureSeconds * 1000,
    // steps of about ×1.5; the ramp starts at ×0.02 and walks down from it when that does not hold
    rampGrid: quick
      ? [0.25, 1]
      : [0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.045, 0.07, 0.1, 0.15, 0.2, 0.3, 0.45, 0.7, 1],
    rampStart: quick ? 0 : 4,
    rampRefinements: quick ? 1 : 2,
    rampSettleMs: quick ? 150 : 700,
    rampMeasureMs: quick ? 500 : 2000,
    drainWindows: quick ? 4 : 25,
    socketRounds: quick ? 1 : 3,
    roundMeasureMs: quick ? 500 : 3000,
    // a minute: the young generation grows to its full size and the old one gathers what the feed leaves
    fedIdle: { starts: quick ? 1 : 2, seconds: quick ? 2 : 60, heapReadings: quick ? 1 : 5 },
    restSeconds: quick ? 1 : 12,
    restRounds: quick ? 1 : 4,
    restConnections: quick ? 20 : 50,
    phases,
    serialRequests: quick ? 100 : 2000,
    proxied: {
      rounds: quick ? 1 : 3,
      warmupSeconds: quick ? 1 : 5,
      seconds: quick ? 1 : 3,
      connections: quick ? 20 : 50,
      serialRequests: quick ? 100 : 1000,
    },
    hostileSeconds: quick ? 1 : 5,
    uploadsSeconds: quick ? 2 : 10,
    // the question is the memory a minute after a burst
    uploadsSettleSeconds: quick ? 2 : 60,
    // an idle gateway's first full collection can take a minute or more to come
    uploadsSettleLimitSeconds: quick ? 5 : 180,
    installMissing: !values['no-install'],
    pin: !values['no-pin'],
    only: values.systems?.split(',').map((name) => name.trim()),
    // none named: the bench starts its own redis-server on the generator's core
    redisUrl: values['redis-url'],
    outFile: values.out ?? path.join(loadtestsDir, 'results', `bench-${quick ? 'quick-' : ''}${stamp}.json`),
    // RESULTS.md is the whole bench's report: a run that measured less of it (quick, some phases, some
    // systems, other socket counts) writes it only where --results-md says
    resultsMd:
      values['results-md'] ??
      (quick ||
      values.systems !== undefined ||
      values.clients !== undefined ||
      phases.length < BENCH_PHASES.length
        ? undefined
        : path.join(loadtestsDir, 'RESULTS.md')),
    scenario: defaultScenario,
  }
}

if (isMainModule(import.meta.url) && process.argv[2] === '--render') {
  // `npm run bench -- --render results/bench-….json [RESULTS.md]`: rewrite RESULTS.md from a finished run.
  const jsonFile = path.resolve(process.argv[3] ?? '')
  const result = JSON.parse(readFileSync(jsonFile, 'utf8')) as BenchResult
  await writeResultsMd(
    result,
    jsonFile,
    path.resolve(process.argv[4] ?? path.join(loadtestsDir, 'RESULTS.md')),
  )
} else if (isMainModule(import.meta.url)) {
  const { printOptions, ...options } = optionsFromArgs(process.argv.slice(2))
  if (printOptions) {
    // What the harness would run with, for checking that flags arrive through npm.
    console.log(JSON.stringify(options))
    process.exit(0)
  }
  const began = performance.now()
  const result = await runBench(options, (line) =>
    console.error(`[${((performance.now() - began) / 1000).toFixed(0).padStart(3)} s] ${line}`),
  )
  // the figures as RESULTS.md words them, whether or not this run writes that file
  console.log(renderResultsMd(result, path.relative(loadtestsDir, options.outFile)))
  mkdirSync(path.dirname(options.outFile), { recursive: true })
  writeFileSync(options.outFile, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`\nwrote ${path.relative(process.cwd(), options.outFile) || options.outFile}`)
  if (options.resultsMd) await writeResultsMd(result, options.outFile, options.resultsMd)
  // Lingering client sockets or timers must not keep a finished run alive.
  process.exit(
    result.socket.every((row) => row.ok) &&
      result.capacity.every((report) => !report.error) &&
      result.rest.every((row) => row.ok || row.unavailable) &&
      [result.hostile, result.uploads, result.uploadsFloor, result.proxied].every((row) => !row || row.ok)
      ? 0
      : 1,
  )
}
