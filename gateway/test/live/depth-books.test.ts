import { describe, expect, it } from 'vitest'
import { DepthBooks } from '../../src/live/depth-books'
import type { DepthLevel } from '@tradegate/shared'

// The feed keeps a level's price and quantity in one spelling, so one price is one level whoever
// wrote it; a frame already in that spelling is kept as written, and anything else is rewritten or,
// when it is not a positive price with a non-negative quantity, the book is given up for a resync.

function snapshotOf(bids: DepthLevel[], asks: DepthLevel[] = [['200', '1']]) {
  return { type: 'DEPTH' as const, symbol: 'btcusdt', ts: 1, data: { snapshot: true, seq: 1, bids, asks } }
}

function publishedBids(books: DepthBooks, bids: DepthLevel[]): unknown {
  const outcome = books.accept(snapshotOf(bids))
  if (outcome.kind !== 'publish') return outcome.kind
  return (JSON.parse(outcome.snapshot.frame.toString()) as { data: { bids: unknown } }).data.bids
}

describe('the feed writes DEPTH levels in one spelling', () => {
  it('keeps canonical levels as written and rewrites the others, one step to the side', () => {
    const books = new DepthBooks()
    expect(
      publishedBids(books, [
        ['100.5', '2'],
        ['0.25', '0.1'],
      ]),
    ).toEqual([
      ['100.5', '2'],
      ['0.25', '0.1'],
    ])
    expect(
      publishedBids(books, [
        ['100.50', '2.0'],
        ['0100', '002'],
        ['1.015e2', '1e0'],
        ['.5', '3.10'],
      ]),
    ).toEqual([
      ['101.5', '1'],
      ['100.5', '2'],
      ['100', '2'],
      ['0.5', '3.1'],
    ])
  })

  it('gives the book up for a resync on a price that is not positive or a quantity below zero', () => {
    for (const bad of [
      ['0', '1'],
      ['0.000', '1'],
      ['-1', '1'],
      ['-0', '1'],
      ['100', '-0'],
      ['100', '-0.5'],
      ['100', 'Infinity'],
    ] as DepthLevel[])
      expect(publishedBids(new DepthBooks(), [['99', '1'], bad]), bad.join(' ')).toBe('resync')
  })

  it('merges an update written in another spelling into the same level', () => {
    const books = new DepthBooks()
    books.accept(snapshotOf([['100.5', '2']]))
    const update = books.accept({
      type: 'DEPTH',
      symbol: 'btcusdt',
      ts: 2,
      data: { snapshot: false, seq: 2, bids: [['100.500', '3']], asks: [] },
    })
    if (update.kind !== 'publish') throw new Error(update.kind)
    const book = JSON.parse(update.snapshot.frame.toString()) as { data: { bids: unknown } }
    expect(book.data.bids).toEqual([['100.5', '3']])
  })
})
