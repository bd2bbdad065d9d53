import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Decimal } from 'decimal.js'
import { applyDepthUpdate, bookFromSnapshot, comparePrices, mergeSide } from './depth-book'
import type { DepthData, DepthLevel } from './protocol'

// The DEPTH rules the gateway's feed, its followers and the client build books with, held against a
// plain model: a map from each price's decimal value to its last level, sorted best first.

/** Prices from a small grid, some written with trailing zeros, so equal values meet in other spellings. */
const price = fc
  .tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom('', '0', '00'))
  .map(([units, zeros]) => `${100 + units / 4}${zeros && !Number.isInteger(units / 4) ? zeros : ''}`)
const quantity = fc.oneof(
  fc.constant('0'),
  fc.constant('0.000'),
  fc.integer({ min: 1, max: 999 }).map(String),
)
const level = fc.tuple(price, quantity) as fc.Arbitrary<DepthLevel>
const levels = fc.array(level, { maxLength: 30 })

function model(
  start: readonly DepthLevel[],
  changes: readonly DepthLevel[],
  best: 'high' | 'low',
): DepthLevel[] {
  const byValue = new Map<string, DepthLevel>(start.map((entry) => [new Decimal(entry[0]).toFixed(), entry]))
  for (const change of changes) {
    const key = new Decimal(change[0]).toFixed()
    if (new Decimal(change[1]).isZero()) byValue.delete(key)
    else byValue.set(key, change)
  }
  const sign = best === 'high' ? -1 : 1
  return [...byValue.values()].sort((a, b) => sign * new Decimal(a[0]).cmp(b[0]))
}

function strictlyOrdered(side: readonly DepthLevel[], best: 'high' | 'low'): boolean {
  return side.every(
    (entry, index) =>
      index === 0 || new Decimal(side[index - 1]![0]).cmp(entry[0]) === (best === 'high' ? 1 : -1),
  )
}

describe('the DEPTH book rules', () => {
  it('merge a side as the model does: one level a price value, the last change kept, zeros removed', () => {
    fc.assert(
      fc.property(
        levels,
        levels,
        fc.constantFrom('high' as const, 'low' as const),
        (start, changes, best) => {
          const base = model([], start, best)
          expect(mergeSide(base, changes, best)).toEqual(model(base, changes, best))
        },
      ),
    )
  })

  it('keep every side ordered best first, without zeros or repeated prices, within its bound', () => {
    fc.assert(
      fc.property(
        levels,
        fc.array(levels, { maxLength: 8 }),
        fc.integer({ min: 1, max: 12 }),
        (snap, updates, keep) => {
          let book = bookFromSnapshot({ snapshot: true, seq: 1, bids: snap, asks: snap }, keep)
          for (const [index, changes] of updates.entries()) {
            const result = applyDepthUpdate(
              book,
              { snapshot: false, seq: index + 2, bids: changes, asks: changes },
              keep,
            )
            if (result.outcome !== 'applied') throw new Error(result.outcome)
            book = result.book
          }
          for (const [side, best] of [
            [book.bids, 'high'],
            [book.asks, 'low'],
          ] as const) {
            expect(side.length).toBeLessThanOrEqual(keep)
            expect(strictlyOrdered(side, best)).toBe(true)
            expect(side.every(([, qty]) => !new Decimal(qty).isZero())).toBe(true)
          }
        },
      ),
    )
  })

  it('bound a side to its best levels when nothing is removed', () => {
    const added = fc.array(
      fc.tuple(price, fc.integer({ min: 1, max: 9 }).map(String)) as fc.Arbitrary<DepthLevel>,
    )
    fc.assert(
      fc.property(added, added, fc.integer({ min: 1, max: 10 }), (start, changes, keep) => {
        const kept = mergeSide(mergeSide([], start, 'low', keep), changes, 'low', keep)
        expect(kept).toEqual(model(start, changes, 'low').slice(0, keep))
      }),
    )
  })

  it('apply only the next seq: an old update changes nothing, a skipped one is a gap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: -5, max: 5 }),
        levels,
        (seq, offset, changes) => {
          const book = bookFromSnapshot({ snapshot: true, seq, bids: [['100', '1']], asks: [['101', '1']] })
          const update: DepthData = { snapshot: false, seq: seq + offset, bids: changes, asks: [] }
          const result = applyDepthUpdate(book, update)
          expect(result.outcome).toBe(offset === 1 ? 'applied' : offset <= 0 ? 'old' : 'gap')
          expect(book.bids).toEqual([['100', '1']])
        },
      ),
    )
  })

  it('reach the same book from a snapshot and its updates as from one snapshot of the end state', () => {
    fc.assert(
      fc.property(levels, fc.array(levels, { maxLength: 6 }), (snap, updates) => {
        let book = bookFromSnapshot({ snapshot: true, seq: 7, bids: snap, asks: [] })
        for (const changes of updates) {
          const result = applyDepthUpdate(book, {
            snapshot: false,
            seq: book.seq + 1,
            bids: changes,
            asks: [],
          })
          if (result.outcome === 'applied') book = result.book
        }
        const rebuilt = bookFromSnapshot({ snapshot: true, seq: book.seq, bids: book.bids.slice(), asks: [] })
        expect(rebuilt).toEqual(book)
      }),
    )
  })

  // Plain prices are compared by their digits, other spellings through Decimal: the two must agree on
  // every pair, including the spellings one step to the side of plain (leading and trailing zeros, a
  // sign, an exponent, one digit more on either side of the point).
  it('compare prices as Decimal does, whatever their spelling', () => {
    const digits = fc.stringMatching(/^[0-9]{1,6}$/)
    const spelled = fc.oneof(
      digits,
      fc.tuple(digits, digits).map(([whole, fraction]) => `${whole}.${fraction}`),
      fc.tuple(digits, digits, fc.constantFrom('0', '00')).map(([w, f, zeros]) => `${w}.${f}${zeros}`),
      fc.tuple(digits, fc.integer({ min: -8, max: 8 })).map(([mantissa, power]) => `${mantissa}e${power}`),
      digits.map((text) => `-${text}`),
      fc.constantFrom('0', '0.0', '00', '000.000', '1', '1.0', '01', '0.1', '0.10', '.5', '5.', '1e0'),
    )
    fc.assert(
      fc.property(spelled, spelled, (a, b) => {
        let expected: number
        try {
          expected = new Decimal(a).cmp(b)
        } catch {
          return // not a number in either reading ('.5' and '5.' are for the plain check's edges)
        }
        expect(comparePrices(a, b)).toBe(expected)
        expect(comparePrices(b, a)).toBe(expected === 0 ? 0 : -expected)
      }),
      { numRuns: 2000 },
    )
  })
})
