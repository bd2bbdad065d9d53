import { describe, expect, it } from 'vitest'
import { toDecimal } from '@tradegate/shared'
import { Refusal } from '../api/refusal'
import { Ledger, holdLeg } from './ledger'

describe('Ledger', () => {
  const deposit = (ledger: Ledger, amount: string) =>
    ledger.apply({
      kind: 'deposit',
      note: 'test',
      legs: [
        { pool: 'outside', coin: 'usdt', amount: toDecimal(amount).negated() },
        { userId: '1', account: 'platform', coin: 'usdt', available: toDecimal(amount) },
      ],
    })

  it('records each movement with the balance after it, newest first', () => {
    const ledger = new Ledger(() => 1000)
    deposit(ledger, '50')
    deposit(ledger, '0.25')
    expect(ledger.records('1').map((record) => [record.amount, record.balanceAfter])).toEqual([
      ['0.25', '50.25'],
      ['50', '50'],
    ])
    expect(ledger.audit()).toEqual({ usdt: { users: '50.25', house: '0', fees: '0', inflow: '50.25' } })
  })

  it('refuses a movement that would leave any wallet negative, and applies none of its legs', () => {
    const changes: string[] = []
    const ledger = new Ledger(Date.now, (userId, balance) => changes.push(`${userId}:${balance.available}`))
    deposit(ledger, '10')
    const attempt = () =>
      ledger.apply({
        kind: 'spot',
        note: 'too big',
        legs: [
          { pool: 'house', coin: 'btc', amount: toDecimal('-1') },
          { userId: '1', account: 'platform', coin: 'btc', available: toDecimal('1') },
          { userId: '1', account: 'platform', coin: 'usdt', available: toDecimal('-10.01') },
          { pool: 'house', coin: 'usdt', amount: toDecimal('10.01') },
        ],
      })
    expect(attempt).toThrow(Refusal)
    expect(ledger.balances('1').find((row) => row.coin === 'btc')).toBeUndefined()
    expect(ledger.pool('house', 'btc').isZero()).toBe(true)
    expect(changes).toEqual(['1:10'])
  })

  it('rejects a movement whose legs do not sum to zero, as a programming error', () => {
    const ledger = new Ledger(Date.now)
    expect(() =>
      ledger.apply({
        kind: 'bonus',
        note: 'money from nowhere',
        legs: [{ userId: '1', account: 'platform', coin: 'usdt', available: toDecimal('5') }],
      }),
    ).toThrow(/unbalanced/)
    expect(ledger.records('1')).toEqual([])
  })
  it('shows a withdrawal once: the hold is the movement, paying out of the hold adds no line', () => {
    const ledger = new Ledger(() => 1000)
    deposit(ledger, '150')
    ledger.apply({
      kind: 'withdraw',
      note: 'hold',
      legs: [holdLeg('1', 'platform', 'usdt', toDecimal('100'))],
    })
    ledger.apply({
      kind: 'withdraw',
      note: 'paid out',
      legs: [
        { userId: '1', account: 'platform', coin: 'usdt', frozen: toDecimal('-100') },
        { pool: 'outside', coin: 'usdt', amount: toDecimal('100') },
      ],
    })
    expect(ledger.records('1').map((record) => [record.kind, record.amount, record.balanceAfter])).toEqual([
      ['withdraw', '-100', '50'],
      ['deposit', '150', '150'],
    ])
    expect(ledger.wallet('1', 'platform', 'usdt').frozen.isZero()).toBe(true)
  })
})
