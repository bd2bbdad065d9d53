import type { FastifyBaseLogger } from 'fastify'
import { redisWindowCounter } from '../plugins/app/rate-limit'
import type { RedisClient } from '../plugins/external/redis'

// Uploads per client per minute, apart from and far below the general request budget: one upload
// costs the gateway megabytes of memory and the upstream a stored file. Shared through Redis when
// there is one; like the general limit it lets uploads pass while Redis is away.

const WINDOW_MS = 60_000
// past this many clients in memory, windows that have ended are swept before another is added
const SWEEP_AT = 10_000

export interface UploadBudgetOptions {
  perMinute: number
  redis: RedisClient | null
  /** Redis key prefix of the deployment */
  prefix: string
  log: FastifyBaseLogger
}

export class UploadBudget {
  private readonly windows = new Map<string, { count: number; endsAt: number }>()
  private readonly countInRedis: ((key: string, windowMs: number) => Promise<[number, number]>) | null
  private redisFailing = false

  constructor(private readonly options: UploadBudgetOptions) {
    this.countInRedis = options.redis ? redisWindowCounter(options.redis) : null
  }

  /** Counts one upload for `client`; the seconds until its window ends when this one is over the budget, else 0. */
  async take(client: string): Promise<number> {
    const redis = this.options.redis
    if (this.countInRedis && redis?.status === 'ready') {
      try {
        const [count, msLeft] = await this.countInRedis(`${this.options.prefix}upload:${client}`, WINDOW_MS)
        this.redisFailing = false
        return count > this.options.perMinute ? Math.max(1, Math.ceil(msLeft / 1000)) : 0
      } catch (error) {
        if (!this.redisFailing)
          this.options.log.warn(
            { event: 'upload_budget_open', err: String(error) },
            'upload budget: Redis unavailable, not limiting',
          )
        this.redisFailing = true
        return 0
      }
    }
    if (this.countInRedis) return 0
    return this.takeInMemory(client, Date.now())
  }

  private takeInMemory(client: string, now: number): number {
    let window = this.windows.get(client)
    if (!window || window.endsAt <= now) {
      if (this.windows.size >= SWEEP_AT)
        for (const [key, old] of this.windows) if (old.endsAt <= now) this.windows.delete(key)
      window = { count: 0, endsAt: now + WINDOW_MS }
      this.windows.set(client, window)
    }
    window.count++
    return window.count > this.options.perMinute ? Math.max(1, Math.ceil((window.endsAt - now) / 1000)) : 0
  }
}
