import { describe, expect, it } from 'vitest'
import { defaultScenario, planClients, startTickGenerator, topicKey, type ServerFrame } from './scenario'

describe('planClients', () => {
  const plans = planClients(defaultScenario, 10_000)

  it('gives every system the same client mix for the same seed', () => {
    expect(planClients(defaultScenario, 50)).toEqual(plans.slice(0, 50))
  })

  it('subscribes each client to DETAIL, KLINE and TRADE for 1 to 3 distinct symbols', () => {
    for (const plan of plans) {
      expect(plan.symbols.length).toBeGreaterThanOrEqual(1)
      expect(plan.symbols.length).toBeLessThanOrEqual(3)
      expect(new Set(plan.symbols).size).toBe(plan.symbols.length)
      expect(plan.subscribeFrames).toHaveLength(plan.symbols.length * 3)
      expect(plan.expectedPerSecond).toBe(plan.symbols.length * 32)
    }
    expect(plans[0]!.subscribeFrames.find((frame) => frame.type === 'KLINE')?.interval).toBe('1min')
  })

  it('puts about 30% of clients on btcusdt', () => {
    const onBtc = plans.filter((plan) => plan.symbols.includes('btcusdt')).length / plans.length
    expect(onBtc).toBeGreaterThan(0.27)
    expect(onBtc).toBeLessThan(0.33)
  })
})

describe('startTickGenerator', () => {
  it('publishes protocol frames on every topic with the publish time last', async () => {
    const seen = new Map<string, ServerFrame>()
    const generator = startTickGenerator({ ...defaultScenario, symbols: 3 }, (topic, frame) =>
      seen.set(topic, frame),
    )
    await new Promise((done) => setTimeout(done, 1200))
    generator.stop()
    expect([...seen.keys()].sort()).toEqual(
      ['btcusdt', 'ethusdt', 'solusdt']
        .flatMap((symbol) => [
          topicKey('DETAIL', symbol),
          topicKey('KLINE', symbol, '1min'),
          topicKey('TRADE', symbol),
        ])
        .sort(),
    )
    const kline = seen.get('KLINE:btcusdt:1min')!
    expect(kline).toMatchObject({ type: 'KLINE', symbol: 'btcusdt', interval: '1min' })
    expect(JSON.stringify(kline)).toMatch(/,"ts":\d+}$/)
    expect(generator.published).toBeGreaterThan(0)
  })
})
