import type { FastifyBaseLogger } from 'fastify'
import { withDeadline } from '../lib/deadline'

// The symbols a market subscription may name: every symbol of the upstream's coin list, read
// through the gateway's upstream client and refreshed in the background.

export interface CoinSymbolsOptions {
  /** the getCoinList answer's body, already parsed; throws when there is none */
  load(): Promise<unknown>
  log: FastifyBaseLogger
  /** a list older than this is refreshed in the background while it keeps answering */
  refreshMs?: number
  /** after a failed load, the next try waits this long */
  retryMs?: number
  /** a load slower than this counts as failed, so a hung upstream never holds subscriptions long */
  timeoutMs?: number
}

export type SymbolCheck = 'known' | 'unknown' | 'unchecked'

const LISTS = ['coinList', 'currencyList', 'contractList', 'optionList'] as const

/** Every symbol named in a getCoinList answer (`{code:200,data:{coinList:[{symbol}],…}}`), or null. */
export function symbolsOfCoinList(answer: unknown): Set<string> | null {
  if (typeof answer !== 'object' || answer === null) return null
  const { code, data } = answer as { code?: unknown; data?: unknown }
  if (code !== 200 || typeof data !== 'object' || data === null) return null
  const symbols = new Set<string>()
  for (const name of LISTS) {
    const list = (data as Record<string, unknown>)[name]
    if (!Array.isArray(list)) continue
    for (const item of list) {
      const symbol = (item as { symbol?: unknown } | null)?.symbol
      if (typeof symbol === 'string') symbols.add(symbol.toLowerCase())
    }
  }
  return symbols.size > 0 ? symbols : null
}

export class CoinSymbols {
  private known: Set<string> | null = null
  private loadedAt = 0
  private failedAt = 0
  private loading: Promise<void> | null = null
  private readonly refreshMs: number
  private readonly retryMs: number
  private readonly timeoutMs: number

  constructor(private readonly options: CoinSymbolsOptions) {
    // rare reads: one upstream call per instance a minute
    this.refreshMs = options.refreshMs ?? 60_000
    this.retryMs = options.retryMs ?? 15_000
    this.timeoutMs = options.timeoutMs ?? 3000
  }

  /** True once a load has finished, well or badly: checks then answer at once. */
  get settled(): boolean {
    return this.known !== null || this.failedAt > 0
  }

  /**
   * `unchecked` while no list has ever loaded (the upstream is away): the subscription is let
   * through, bounded by the topic cap, rather than refusing every market for every user.
   */
  check(symbol: string): SymbolCheck {
    const now = Date.now()
    if (
      !this.loading &&
      now - Math.max(this.loadedAt, this.failedAt) >= (this.known ? this.refreshMs : this.retryMs)
    )
      void this.refresh()
    if (!this.known) return 'unchecked'
    return this.known.has(symbol) ? 'known' : 'unknown'
  }

  /** Loads the list once however many callers wait; never rejects. */
  refresh(): Promise<void> {
    if (this.loading) return this.loading
    this.loading = withDeadline(this.options.load(), this.timeoutMs)
      .then((answer) => {
        const symbols = symbolsOfCoinList(answer)
        if (!symbols) throw new Error('coin list without symbols')
        if (!this.known || this.failedAt > 0)
          this.options.log.info({ event: 'coin_list_loaded', symbols: symbols.size }, 'coin list loaded')
        this.known = symbols
        this.loadedAt = Date.now()
        this.failedAt = 0
      })
      .catch((error: unknown) => {
        if (this.failedAt === 0)
          this.options.log.warn(
            { event: 'coin_list_failed', err: String(error), checking: this.known !== null },
            this.known
              ? 'coin list refresh failed: the last list stays'
              : 'coin list unavailable: symbols unchecked',
          )
        this.failedAt = Date.now()
      })
      .finally(() => {
        this.loading = null
      })
    return this.loading
  }
}
