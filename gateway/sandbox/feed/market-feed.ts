import { KLINE_INTERVALS, type KlineInterval, type SubscriptionFrame } from '@tradegate/shared'
import type { Market, SymbolTick } from '../markets/market'
import type { FeedHub } from './feed-hub'

// Turns market ticks into feed frames: DETAIL every tick, TRADE per print, KLINE about once a second,
// and DEPTH: the changes of each order book since its last frame, batched at most every DEPTH_EVERY_MS.

const KLINE_EVERY_MS = 1000
/** A book changes every tick; a client needs its picture only a few times a second. */
const DEPTH_EVERY_MS = 200

export class MarketFeed {
  private readonly lastKlineAt = new Map<string, number>()
  private readonly lastDepthAt = new Map<string, number>()

  constructor(
    private readonly market: Market,
    private readonly hub: FeedHub,
    private readonly clock: () => number,
  ) {}

  publish(ticks: readonly SymbolTick[]): void {
    const ts = this.clock()
    for (const { symbol, trade } of ticks) {
      this.hub.publishMarket({ type: 'DETAIL', symbol, data: this.market.detail(symbol), ts })
      if (trade) this.hub.publishMarket({ type: 'TRADE', symbol, data: trade, ts })
      if (ts - (this.lastDepthAt.get(symbol) ?? 0) >= DEPTH_EVERY_MS) this.publishDepth(symbol, ts)
      if (ts - (this.lastKlineAt.get(symbol) ?? 0) >= KLINE_EVERY_MS) {
        this.lastKlineAt.set(symbol, ts)
        for (const interval of KLINE_INTERVALS) this.publishKline(symbol, interval, ts)
      }
    }
  }

  /** Every symbol's book snapshot, for a gateway socket that has just connected. */
  depthSnapshots(): string[] {
    return this.market.instruments.map(({ symbol }) => this.depthSnapshot(symbol))
  }

  /** Frames sent at once when a client subscribes, as JSON text. */
  snapshot(frame: SubscriptionFrame): string[] {
    const ts = this.clock()
    switch (frame.type) {
      case 'DETAIL': {
        const symbols = frame.symbol ? [frame.symbol] : this.market.instruments.map((i) => i.symbol)
        return symbols.map((symbol) =>
          JSON.stringify({ type: 'DETAIL', symbol, data: this.market.detail(symbol), ts }),
        )
      }
      case 'KLINE': {
        const data = this.market.currentCandle(frame.symbol, frame.interval)
        return [JSON.stringify({ type: 'KLINE', symbol: frame.symbol, interval: frame.interval, data, ts })]
      }
      case 'TRADE': {
        const trade = this.market.lastTrade(frame.symbol)
        return trade ? [JSON.stringify({ type: 'TRADE', symbol: frame.symbol, data: trade, ts })] : []
      }
      case 'DEPTH':
        return [this.depthSnapshot(frame.symbol)]
      default:
        return []
    }
  }

  /**
   * The book as last published, with its seq. Changes not yet published go out first as an update,
   * so the snapshot is current and the next update follows it without a gap.
   */
  private depthSnapshot(symbol: string): string {
    this.publishDepth(symbol, this.clock())
    const data = this.market.book(symbol).snapshot()
    return JSON.stringify({ type: 'DEPTH', symbol, data, ts: this.clock() })
  }

  private publishDepth(symbol: string, ts: number): void {
    // while the feed is paused the book keeps its changes for the first update after it resumes,
    // so no seq is ever skipped
    if (this.hub.isPaused) return
    const data = this.market.book(symbol).update()
    this.lastDepthAt.set(symbol, ts)
    if (data) this.hub.publishMarket({ type: 'DEPTH', symbol, data, ts })
  }

  private publishKline(symbol: string, interval: KlineInterval, ts: number): void {
    const data = this.market.currentCandle(symbol, interval)
    this.hub.publishMarket({ type: 'KLINE', symbol, interval, data, ts })
  }
}
