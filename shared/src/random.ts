// Seeded randomness, so one seed always yields the same sandbox price paths and the same bench
// client mix. Kept here rather than taken from pure-rand (installed with fast-check): its generators
// would give every seed new paths, so the seeds behind committed bench figures and the sandbox's
// tests would no longer reproduce them, and it would become a run-time dependency of the sandbox
// bundle for eight lines of arithmetic.

export interface Random {
  /** uniform in [0, 1) */
  next(): number
  /** standard normal */
  gaussian(): number
}

/** mulberry32: tiny, fast and good enough for a price simulation. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    gaussian() {
      // Box-Muller; 1 - next() keeps the logarithm away from zero
      const u = 1 - next()
      const v = next()
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
    },
  }
}

/** Derives an independent stream per name, so adding a symbol never shifts another symbol's path. */
export function deriveSeed(seed: number, name: string): number {
  let hash = seed >>> 0 || 0x9e3779b9
  for (let index = 0; index < name.length; index++) {
    hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193) >>> 0
  }
  return hash
}
