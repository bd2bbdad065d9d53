import { describe, expect, it, vi } from 'vitest'
import { DEPTH_LEVELS } from '@tradegate/shared'
import {
  defaultScenario,
  planClients,
  scenarioTopics,
  startTickGenerator,
  subscriberCounts,
  topicKey,
  type DepthFrame,
  type ServerFrame,
} from './scenario'

describe('planClients', () => {
  const plans = planClients(defaultScenario, 10_000)

  it('gives every system the same client mix for the same seed', () => {
    expect(planClients(defaultScenario, 50)).toEqual(plans.slice(0, 50))
  })

  it('subscribes each client to every stream of its traded symbol and the DETAIL of a two-symbol list', () => {
    for (const plan of plans.slice(0, 500)) {
      expect(plan.list).toHaveLength(2)
      expect(plan.list).not.toContain(plan.traded)
      expect(new Set(plan.list).size).toBe(2)
      expect(plan.subscribeFrames).toHaveLength(6)
      expect(plan.rawTopics).toHaveLength(6)
      expect(plan.ratedTopics).toHaveLength(0)
    }
    expect(plans[0]!.subscribeFrames.map((frame) => frame.type)).toEqual([
      'DETAIL',
      'KLINE',
      'TRADE',
      'DEPTH',
      'DETAIL',
      'DETAIL',
    ])
  })

  it('asks for the list rate on the list only, and counts those subscriptions apart', () => {
    const rated = planClients({ ...defaultScenario, listRate: 1000 }, 100)
    for (const plan of rated) {
      expect(
        plan.subscribeFrames.filter((frame) => frame.rate === 1000).map((frame) => frame.symbol),
      ).toEqual(plan.list)
      expect(plan.ratedTopics).toEqual(plan.list.map((symbol) => topicKey('DETAIL', symbol)))
      expect(plan.rawTopics).toHaveLength(4)
    }
    const counts = subscriberCounts(rated)
    expect([...counts.rated.values()].reduce((a, b) => a + b, 0)).toBe(200)
    expect([...counts.raw.values()].reduce((a, b) => a + b, 0)).toBe(400)
  })

  it('leaves DEPTH out when its rate is 0', () => {
    const [plan] = planClients({ ...defaultScenario, rates: { ...defaultScenario.rates, DEPTH: 0 } }, 1)
    expect(plan!.subscribeFrames.map((frame) => frame.type)).not.toContain('DEPTH')
  })

  it('puts about 30% of clients on btcusdt', () => {
    const onBtc = plans.filter((plan) => plan.traded === 'btcusdt').length / plans.length
    expect(onBtc).toBeGreaterThan(0.27)
    expect(onBtc).toBeLessThan(0.33)
  })
})

describe('startTickGenerator', () => {
  it('publishes protocol frames on every topic with the publish time last, DEPTH as sequenced updates', async () => {
    const scenario = { ...defaultScenario, symbols: 3 }
    const seen = new Map<string, ServerFrame[]>()
    const generator = startTickGenerator(scenario, (topic, frame, index) => {
      expect(scenarioTopics(scenario)[index]!.topic).toBe(topic)
      seen.set(topic, [...(seen.get(topic) ?? []), frame])
    })
    const topics = scenarioTopics(scenario).map((entry) => entry.topic)
    // every topic's first frame, however long a busy machine takes to tick
    await vi.waitFor(() => expect([...seen.keys()].sort()).toEqual([...topics].sort()), {
      timeout: 20_000,
      interval: 20,
    })
    generator.stop()
    const kline = seen.get('KLINE:btcusdt:1min')![0]!
    expect(kline).toMatchObject({ type: 'KLINE', symbol: 'btcusdt', interval: '1min' })
    expect(JSON.stringify(kline)).toMatch(/,"ts":\d+}$/)

    const depth = seen.get('DEPTH:ethusdt') as DepthFrame[]
    const snapshot = generator.depthSnapshot('ethusdt')!
    expect(snapshot.data.snapshot).toBe(true)
    expect(snapshot.data.bids).toHaveLength(DEPTH_LEVELS)
    expect(snapshot.data.asks).toHaveLength(DEPTH_LEVELS)
    expect(snapshot.data.seq).toBe(depth.at(-1)!.data.seq)
    expect(depth.map((frame) => frame.data.seq)).toEqual(depth.map((_, i) => i + 1))
    for (const update of depth) {
      expect(update.data.snapshot).toBe(false)
      expect(update.data.bids.length + update.data.asks.length).toBeGreaterThan(0)
    }
  })
})
