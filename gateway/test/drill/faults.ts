import { CALLS } from '@tradegate/shared'
import type { FaultPlan } from './fault'

// The faults the drill causes, each with the alerts an operator should get for it.

export const redisKill: FaultPlan = {
  name: 'Redis killed',
  expected: ['GatewayRedisDown'],
  inject: (stack) => stack.redis.kill(),
  recover: (stack) => stack.redis.start(),
}

export const upstream5xxBurst: FaultPlan = {
  name: 'upstream 5xx burst',
  expected: ['GatewayUpstreamErrorRatio'],
  // every balance call answered 500 by the upstream; the gateway passes it through
  inject: async (stack) => {
    await stack.upstream.control('/sandbox/fail', {
      count: 100_000,
      mode: 'error',
      path: CALLS.assetBalance.path,
    })
  },
  recover: async (stack) => void (await stack.upstream.control('/sandbox/fail/clear', {})),
}

export const feedFreeze: FaultPlan = {
  name: 'upstream feed silent',
  expected: ['GatewayFeedSilent'],
  inject: (stack) => stack.upstream.pauseFeed(),
  recover: (stack) => stack.upstream.resumeFeed(),
}

export const leaseHolderKill: FaultPlan = {
  name: 'lease holder killed',
  expected: ['GatewayInstanceNotReady'],
  inject: async (stack) => {
    const leader = await leaseHolder(stack)
    await leader.process.kill('SIGKILL')
  },
  recover: async (stack) => {
    for (const node of stack.gateways) {
      const alive = await fetch(`http://127.0.0.1:${node.process.port}/healthz`).then(
        () => true,
        () => false,
      )
      if (!alive) await stack.restart(node)
    }
  },
}

async function leaseHolder(stack: Parameters<FaultPlan['inject']>[0]) {
  for (const node of stack.gateways) {
    const text = await (await fetch(`http://127.0.0.1:${node.metricsPort}/metrics`)).text()
    if (/^gateway_feed_leader\{[^}]*\} 1$/m.test(text)) return node
  }
  throw new Error('no gateway holds the feed lease')
}
