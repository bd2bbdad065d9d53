import { describe, expect, it } from 'vitest'
import { toDecimal, type DepthData } from '@tradegate/shared'
import {
  RESYNC_RETRY_MS,
  aggregate,
  applyDepth,
  bookSteps,
  levelGap,
  spreadOf,
  type OrderBook,
} from './order-book'

const snapshot: DepthData = {
  snapshot: true,
  seq: 10,
  bids: [
    ['99.5', '2'],
    ['100', '1'],
  ],
  asks: [
    ['101', '3'],
    ['100.5', '1.5'],
  ],
}

function step(book: OrderBook | undefined, data: DepthData, now = 1_000_000) {
  return applyDepth(book, data, now)
}

describe('applyDepth', () => {
  it('a snapshot replaces the book, bids best-high and asks best-low', () => {
    const { book, gap } = step(undefined, snapshot)
    expect(gap).toBe(false)
    expect(book?.bids.map(([price]) => price)).toEqual(['100', '99.5'])
    expect(book?.asks.map(([price]) => price)).toEqual(['100.5', '101'])
  })

  it('an update in sequence changes, adds and removes levels; "100.0" and "100" are one level', () => {
    const start = step(undefined, snapshot).book
    const { book, gap } = step(start, {
      snapshot: false,
      seq: 11,
      bids: [
        ['100.0', '4'],
        ['99.5', '0'],
        ['99.8', '0.25'],
      ],
      asks: [],
    })
    expect(gap).toBe(false)
    expect(book?.seq).toBe(11)
    expect(book?.bids).toEqual([
      ['100.0', '4'],
      ['99.8', '0.25'],
    ])
    expect(book?.asks).toEqual(start?.asks)
  })

  it('a skipped seq reports a gap once and ignores updates until the next snapshot', () => {
    const start = step(undefined, snapshot).book
    const missed = step(start, { snapshot: false, seq: 13, bids: [['98', '1']], asks: [] })
    expect(missed.gap).toBe(true)
    expect(missed.book?.stale).toBe(true)
    expect(missed.book?.bids).toEqual(start?.bids)
    const after = step(missed.book, { snapshot: false, seq: 14, bids: [['97', '1']], asks: [] })
    expect(after.gap).toBe(false)
    expect(after.book).toBe(missed.book)
    const fresh = step(after.book, { ...snapshot, seq: 20, bids: [['90', '1']] })
    expect(fresh.book).toMatchObject({ seq: 20, stale: false, bids: [['90', '1']] })
  })

  it('asks again, at most every RESYNC_RETRY_MS, while the snapshot it asked for does not come', () => {
    const start = step(undefined, snapshot, 0).book
    const update = (seq: number, now: number, book: OrderBook | undefined) =>
      step(book, { snapshot: false, seq, bids: [], asks: [] }, now)
    const missed = update(13, 10_000, start)
    expect(missed.gap).toBe(true)
    // updates keep coming, the snapshot does not
    const waiting = update(14, 10_000 + RESYNC_RETRY_MS - 1, missed.book)
    expect(waiting.gap).toBe(false)
    const again = update(15, 10_000 + RESYNC_RETRY_MS, waiting.book)
    expect(again.gap).toBe(true)
    expect(again.book?.stale).toBe(true)
    expect(update(16, 10_000 + RESYNC_RETRY_MS + 1, again.book).gap).toBe(false)
    expect(update(17, 10_000 + 2 * RESYNC_RETRY_MS, again.book).gap).toBe(true)
  })

  it('ignores a stale update and asks for a snapshot when an update comes first', () => {
    const start = step(undefined, snapshot).book
    expect(step(start, { snapshot: false, seq: 9, bids: [['1', '1']], asks: [] })).toEqual({
      book: start,
      gap: false,
    })
    const first = step(undefined, { snapshot: false, seq: 3, bids: [], asks: [] })
    expect(first.gap).toBe(true)
    expect(first.book?.bids).toEqual([])
  })
})

describe('aggregate', () => {
  const bids = step(undefined, {
    snapshot: true,
    seq: 1,
    bids: [
      ['100.26', '1'],
      ['100.24', '2'],
      ['99.99', '0.5'],
      ['99.01', '1'],
    ],
    asks: [
      ['100.31', '1'],
      ['100.39', '1'],
      ['101.01', '2'],
    ],
  }).book as OrderBook

  it('groups bids down and asks up to the step, with running totals', () => {
    const grouped = aggregate(bids.bids, '0.1', 'bid', 10)
    expect(grouped.map((row) => [row.price, row.quantity.toFixed(), row.cumulative.toFixed()])).toEqual([
      ['100.2', '3', '3'],
      ['99.9', '0.5', '3.5'],
      ['99.0', '1', '4.5'],
    ])
    const asks = aggregate(bids.asks, '1', 'ask', 10)
    expect(asks.map((row) => [row.price, row.quantity.toFixed()])).toEqual([
      ['101', '2'],
      ['102', '2'],
    ])
  })

  it('stops at the row count', () => {
    expect(aggregate(bids.bids, '0.01', 'bid', 2).map((row) => row.price)).toEqual(['100.26', '100.24'])
  })

  it('spread and mid come from the best levels', () => {
    const figures = spreadOf(bids)
    expect(figures?.spread.toFixed()).toBe('0.05')
    expect(figures?.mid.toFixed()).toBe('100.285')
    expect(spreadOf({ seq: 1, stale: false, bids: [], asks: [] })).toBeNull()
  })
})

describe('bookSteps', () => {
  it('start at the last digit the price is shown with', () => {
    expect(bookSteps('66958.37')).toEqual(['0.01', '0.1', '1', '10'])
    expect(bookSteps('3.123456')).toEqual(['0.000001', '0.00001', '0.0001', '0.001'])
  })

  it('start under the gap between levels when the book is coarser than the price digits', () => {
    expect(bookSteps('67300.00', toDecimal('10'))).toEqual(['10', '100', '1000', '10000'])
    expect(bookSteps('3472.00', toDecimal('0.5'))).toEqual(['0.1', '1', '10', '100'])
    expect(bookSteps('3472.00', toDecimal('0.01'))).toEqual(['0.01', '0.1', '1', '10'])
  })
})

describe('levelGap', () => {
  it('is the smallest step between neighbouring levels, none for a single level', () => {
    expect(
      levelGap([
        ['100', '1'],
        ['99', '1'],
        ['98.5', '1'],
      ])?.toFixed(),
    ).toBe('0.5')
    expect(levelGap([['100', '1']])).toBeUndefined()
  })
})
