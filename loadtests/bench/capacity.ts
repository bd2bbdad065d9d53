/**
 * When a window counts as held, how a system's capacity is found, and which windows two systems
 * may be compared in. Only held windows at the same offered rate ever make a ratio.
 */
import type { ClientWindow } from './native-client'
import type { FanOutFloor, SocketWindow } from './types'
import { generatorBound } from './generator-bound'

/**
 * A window holds when 99% of the every-tick frames published in it arrived, and their p99 within
 * this much over the window's fan-out floor. The floor is not a server's choice: at 10,000 sockets
 * one frame of the hottest topic takes 35–57 ms to reach its last subscriber on every ws system
 * here, pre-framed floor included, so a bound of 50 ms flat held no rate and every capacity was the
 * noise of single p99s near it. Over the floor, the bound measures the queueing a load adds; the
 * floor grows with a system's CPU per delivery, so a costlier system gets a little more room (about
 * 3 ms between the gateway and the corked floor), never less.
 */
export const HELD_P99_MS = 50
export const HELD_DELIVERED_SHARE = 0.99

/**
 * How many frames a subscriber at `rateMs` can receive for `published` ticks of its topic in a
 * window of `windowMs`: one per period at most (the latest value), never more than the ticks.
 * At least one fewer than the whole periods in the window, since the last tick of a period may be
 * replaced by one published after the window ended.
 */
export function ratedBounds(
  published: number,
  windowMs: number,
  rateMs: number,
): { min: number; max: number } {
  const periods = windowMs / rateMs
  return {
    min: Math.max(0, Math.min(published, Math.floor(periods)) - 1),
    max: Math.min(published, Math.ceil(periods) + 1),
  }
}

export interface JudgeInput {
  rateScale: number
  client: ClientWindow
  /** Frames the tick feed published per topic inside the window. */
  published: Record<string, number>
  subscribers: { raw: Map<string, number>; rated: Map<string, number> }
  /** The market list's rate (0: every tick, no rated subscriptions). */
  listRateMs: number
  /** Server CPU used during the window, µs; undefined when /proc could not be read. */
  serverCpuMicros?: number
}

/**
 * The latency one frame of the window's most subscribed topic cannot beat: a server writes it to its
 * subscribers one after another, so at the window's CPU per delivery the last one gets it this long
 * after the first, at any rate. Every-tick subscribers of topics published in the window; undefined
 * without a CPU figure or a publish.
 */
export function fanOutFloor(
  published: Record<string, number>,
  raw: ReadonlyMap<string, number>,
  microsPerDelivery: number | undefined,
): FanOutFloor | undefined {
  if (microsPerDelivery === undefined || !Number.isFinite(microsPerDelivery)) return undefined
  let hottest: { topic: string; subscribers: number } | undefined
  for (const [topic, count] of Object.entries(published)) {
    const subscribers = raw.get(topic) ?? 0
    if (count > 0 && subscribers > (hottest?.subscribers ?? 0)) hottest = { topic, subscribers }
  }
  if (!hottest) return undefined
  return { ...hottest, microsPerDelivery, ms: (hottest.subscribers * microsPerDelivery) / 1000 }
}

/** The p99 a window may reach and still hold: HELD_P99_MS over its fan-out floor (over 0 when unknown). */
export function heldP99Bound(floor: FanOutFloor | undefined): number {
  return HELD_P99_MS + (floor?.ms ?? 0)
}

export function judgeWindow(input: JudgeInput): SocketWindow {
  const { client, published, subscribers } = input
  let offered = 0
  for (const [topic, count] of Object.entries(published)) offered += count * (subscribers.raw.get(topic) ?? 0)
  const seconds = client.seconds
  const share = offered > 0 ? client.raw.delivered / offered : 0
  const reasons: string[] = []
  if (offered === 0) reasons.push('nothing was published')
  else if (share < HELD_DELIVERED_SHARE) reasons.push(`${(share * 100).toFixed(1)}% delivered`)
  const deliveries = client.raw.delivered + client.rated.delivered
  const microsPerDelivery =
    input.serverCpuMicros !== undefined && deliveries > 0 ? input.serverCpuMicros / deliveries : undefined
  const floor = fanOutFloor(published, subscribers.raw, microsPerDelivery)
  const p99Bound = heldP99Bound(floor)
  if (!(client.raw.latencyMs.p99 <= p99Bound))
    reasons.push(
      floor
        ? `p99 ${client.raw.latencyMs.p99} ms over ${Math.round(p99Bound)} (${HELD_P99_MS} above a fan-out floor of ${Math.round(floor.ms)} ms)`
        : `p99 ${client.raw.latencyMs.p99} ms`,
    )

  let rated: SocketWindow['rated']
  if (input.listRateMs > 0 && subscribers.rated.size > 0) {
    const windowMs = client.to - client.from + 1
    let min = 0
    let max = 0
    for (const [topic, count] of subscribers.rated) {
      const bounds = ratedBounds(published[topic] ?? 0, windowMs, input.listRateMs)
      min += bounds.min * count
      max += bounds.max * count
    }
    const delivered = client.rated.delivered
    rated = {
      rateMs: input.listRateMs,
      deliveredPerSecond: delivered / seconds,
      minPerSecond: min / seconds,
      maxPerSecond: max / seconds,
      latencyMs: client.rated.latencyMs,
      rateIgnored: delivered > max,
    }
    if (delivered < HELD_DELIVERED_SHARE * min) reasons.push(`list frames ${delivered} of at least ${min}`)
    if (client.rated.latencyMs.samples > 0 && !(client.rated.latencyMs.p99 <= input.listRateMs + HELD_P99_MS))
      reasons.push(`list p99 ${client.rated.latencyMs.p99} ms`)
  }
  return {
    rateScale: input.rateScale,
    from: client.from,
    to: client.to,
    seconds,
    offeredPerSecond: offered / seconds,
    deliveredPerSecond: client.raw.delivered / seconds,
    deliveredShare: share,
    latencyMs: client.raw.latencyMs,
    ...(rated ? { rated } : {}),
    backlogFrames: client.backlog,
    serverCpuPercent:
      input.serverCpuMicros === undefined ? undefined : (input.serverCpuMicros / 1e6 / seconds) * 100,
    serverCpuMicrosPerDelivery: microsPerDelivery,
    ...(floor ? { fanOutFloor: floor } : {}),
    clientCpuPercent: client.clientCpuPercent,
    socketErrors: client.socketErrors,
    held: reasons.length === 0,
    verdict: reasons.join(', '),
  }
}

/** Three significant digits, so refined rate scales read well and compare exactly. */
function roundScale(scale: number): number {
  return Number(scale.toPrecision(3))
}

export interface CapacitySearch<W extends { rateScale: number; held: boolean; offeredPerSecond: number }> {
  steps: W[]
  capacity: W | null
  atTopOfRamp: boolean
}

/**
 * Walks `grid` up from `startIndex` until a step does not hold (down from it, when the first step
 * does not hold, until one does), then halves the gap between the last held step and the first
 * failed one `refinements` times (geometric midpoints). Capacity is the held step with the highest
 * offered rate. Steps are measured one at a time, in the order they are tried.
 */
export async function findCapacity<W extends { rateScale: number; held: boolean; offeredPerSecond: number }>(
  grid: readonly number[],
  startIndex: number,
  refinements: number,
  measure: (scale: number) => Promise<W>,
): Promise<CapacitySearch<W>> {
  const steps: W[] = []
  const tryScale = async (scale: number): Promise<W> => {
    const step = await measure(scale)
    steps.push(step)
    return step
  }
  let held: number | undefined
  let failed: number | undefined
  const first = await tryScale(grid[startIndex]!)
  if (first.held) {
    held = startIndex
    for (let i = startIndex + 1; i < grid.length; i++) {
      if (!(await tryScale(grid[i]!)).held) {
        failed = i
        break
      }
      held = i
    }
  } else {
    failed = startIndex
    for (let i = startIndex - 1; i >= 0; i--) {
      if ((await tryScale(grid[i]!)).held) {
        held = i
        break
      }
      failed = i
    }
  }
  if (held !== undefined && failed !== undefined) {
    let low = grid[held]!
    let high = grid[failed]!
    for (let round = 0; round < refinements; round++) {
      const middle = roundScale(Math.sqrt(low * high))
      if (middle <= low || middle >= high) break
      if ((await tryScale(middle)).held) low = middle
      else high = middle
    }
  }
  const capacity = steps
    .filter((step) => step.held)
    .reduce<W | null>(
      (best, step) => (!best || step.offeredPerSecond > best.offeredPerSecond ? step : best),
      null,
    )
  return { steps, capacity, atTopOfRamp: held === grid.length - 1 && failed === undefined }
}

/**
 * The windows two systems both held at the same rate scale, lowest rate first; a window flagged
 * generator-bound is never one of them.
 */
export function commonHeldWindows<W extends { rateScale: number; held: boolean; generatorBound?: string }>(
  a: readonly W[],
  b: readonly W[],
): Array<{ scale: number; a: W; b: W }> {
  const pairs: Array<{ scale: number; a: W; b: W }> = []
  for (const stepA of a) {
    if (!stepA.held || stepA.generatorBound) continue
    const stepB = [...b]
      .reverse()
      .find((step) => step.held && !step.generatorBound && step.rateScale === stepA.rateScale)
    if (stepB && !pairs.some((pair) => pair.scale === stepA.rateScale))
      pairs.push({ scale: stepA.rateScale, a: stepA, b: stepB })
  }
  return pairs.sort((x, y) => x.scale - y.scale)
}

/**
 * Why a capacity may be the load generator's limit rather than the system's: the generator over its
 * bound in the capacity window, or, at the step above it that did not hold (where the system should
 * have run out of room), the generator over its bound or the system under 90% of its core.
 */
/** The lowest step above a capacity that did not hold: where the system should have run out of room. */
export function failedAbove<W extends { rateScale: number; held: boolean }>(
  steps: readonly W[],
  capacity: W,
): W | undefined {
  return steps
    .filter((step) => !step.held && step.rateScale > capacity.rateScale)
    .sort((a, b) => a.rateScale - b.rateScale)[0]
}

export function capacityGeneratorBound(
  steps: readonly SocketWindow[],
  capacity: SocketWindow | null,
): string | undefined {
  if (!capacity) return undefined
  const reasons: string[] = []
  if (capacity.generatorBound) reasons.push(`at ×${capacity.rateScale}: ${capacity.generatorBound}`)
  const atLimit = failedAbove(steps, capacity) ?? capacity
  const bound = generatorBound({
    generatorCpuPercent: atLimit.clientCpuPercent,
    targetCpuPercent: atLimit.serverCpuPercent,
    atCapacity: true,
  })
  if (bound && atLimit !== capacity)
    reasons.push(`at ×${atLimit.rateScale}, the step that did not hold: ${bound}`)
  else if (bound && !capacity.generatorBound) reasons.push(`at ×${capacity.rateScale}: ${bound}`)
  return reasons.length > 0 ? reasons.join('; ') : undefined
}
