import { describe, expect, it } from 'vitest'
import { DEPTH_LEVELS, toDecimal, type DepthLevel } from '@tradegate/shared'
import { seededRandom } from '@tradegate/shared'
import { INSTRUMENTS } from './catalogue'
import { OrderBook, unitsText, type BookSide, type RestingOrder } from './order-book'

// The book's published levels against the simplest possible reading of the same book: every level,
// sorted, the first DEPTH_LEVELS taken.

const btc = INSTRUMENTS.find((instrument) => instrument.symbol === 'btcusdt')!

/** Every level of one side, best first, read by walking the whole side with an unlimited order. */
function everyLevel(book: OrderBook, side: 'bids' | 'asks'): DepthLevel[] {
  const taker: BookSide = side === 'asks' ? 'buy' : 'sell'
  const totals = new Map<number, number>()
  for (const fill of book.plan(taker, Number.MAX_SAFE_INTEGER, null, 'nobody'))
    totals.set(fill.price, (totals.get(fill.price) ?? 0) + fill.qty)
  return [...totals].map(([price, units]) => [unitsText(price, 2), unitsText(units, 5)])
}

function order(id: number, side: BookSide, price: string, qty: string, book: OrderBook): RestingOrder {
  return {
    id,
    userId: `user${id}`,
    side,
    price: book.ticks(toDecimal(price)),
    remaining: book.units(toDecimal(qty)),
  }
}

describe('OrderBook', () => {
  it('publishes the best levels of the grid and the resting orders, and updates that rebuild them', () => {
    const book = new OrderBook(btc, seededRandom(7), toDecimal('67250'))
    const kept = new Map(book.snapshot().asks)
    const keptBids = new Map(book.snapshot().bids)
    const resting = [
      order(1, 'buy', '67249.99', '0.5', book),
      order(2, 'buy', '67200', '0.25', book), // on the grid: adds to a simulated level
      order(3, 'sell', '67251.5', '1.2', book),
      order(4, 'sell', '67251.5', '0.3', book), // same price: one level
      order(5, 'buy', '60000', '2', book), // far below the top levels
    ]
    let seq = book.snapshot().seq
    const check = () => {
      const update = book.update()
      if (update) {
        expect(update.seq).toBe(++seq)
        for (const [levels, target] of [
          [update.asks, kept],
          [update.bids, keptBids],
        ] as const) {
          for (const [price, qty] of levels) {
            if (qty === '0') target.delete(price)
            else target.set(price, qty)
          }
        }
      }
      const snapshot = book.snapshot()
      expect(snapshot.asks).toEqual(everyLevel(book, 'asks').slice(0, DEPTH_LEVELS))
      expect(snapshot.bids).toEqual(everyLevel(book, 'bids').slice(0, DEPTH_LEVELS))
      expect(new Map(snapshot.asks)).toEqual(kept)
      expect(new Map(snapshot.bids)).toEqual(keptBids)
    }
    check()
    for (const row of resting) book.rest(row)
    check()
    expect(book.snapshot().bids[0]).toEqual(['67249.99', '0.5'])
    expect(book.snapshot().asks[0]).toEqual(['67251.5', '1.5'])
    for (const price of ['67251.3', '67180', '67300.5', '67260']) {
      book.moveTo(toDecimal(price))
      // the desk fills what the price reached; here they simply leave
      for (const crossed of book.crossedBy(toDecimal(price))) book.remove(crossed)
      check()
    }
    book.remove(resting[1]!)
    check()
    expect(book.update()).toBeNull()
  })

  it('walks levels best first, users before the simulation, skipping the taker, up to a limit', () => {
    const book = new OrderBook(btc, seededRandom(3), toDecimal('67250'))
    const [best] = book.snapshot().asks
    const bestTicks = book.ticks(toDecimal(best![0]))
    book.rest({ id: 1, userId: 'maker', side: 'sell', price: bestTicks, remaining: 10 })
    book.rest({ id: 2, userId: 'taker', side: 'sell', price: bestTicks, remaining: 10 })
    const fills = book.plan('buy', 15, bestTicks, 'taker')
    expect(fills[0]).toMatchObject({ price: bestTicks, qty: 10, maker: { id: 1 } })
    expect(fills[1]).toMatchObject({ price: bestTicks, qty: 5, maker: null })
    // nothing beyond the limit
    expect(book.plan('buy', 10 ** 9, bestTicks, 'taker').every((fill) => fill.price === bestTicks)).toBe(true)
    book.take('buy', fills)
    const level = book.plan('buy', 10 ** 9, bestTicks, 'nobody')
    expect(level.map((fill) => fill.qty)).toEqual([10, book.units(toDecimal(best![1])) - 5])
  })
})
