// Failures the control call arms for the next matching /api calls, and the count of calls received.

export type FaultMode = 'error' | 'hang' | 'status503' | 'reset'

interface FaultRule {
  remaining: number
  mode: FaultMode
  path?: string
}

export class FaultPlan {
  private rules: FaultRule[] = []

  arm(count: number, mode: FaultMode, path?: string): void {
    this.rules.push({ remaining: count, mode, ...(path ? { path } : {}) })
  }

  /** The fault to apply to this call, if one is armed for it; each use spends one. */
  take(routePath: string, requestPath: string): FaultMode | undefined {
    const rule = this.rules.find(
      (candidate) =>
        candidate.remaining > 0 &&
        (!candidate.path || candidate.path === routePath || candidate.path === requestPath),
    )
    if (!rule) return undefined
    rule.remaining--
    this.rules = this.rules.filter((candidate) => candidate.remaining > 0)
    return rule.mode
  }

  clear(): void {
    this.rules = []
  }
}

export class CallCounter {
  private counts = new Map<string, number>()

  count(path: string): void {
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1)
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.counts)
  }

  reset(): void {
    this.counts = new Map()
  }
}
