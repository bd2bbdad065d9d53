import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ContractOrder, Position } from '@tradegate/shared'
import { findPositionClose } from './find-trade-actions'

// The lookup behind a futures close whose answer was lost: it reads the close rows the exchange
// writes for the position, each with its reason, so it tells the user's close from a take-profit,
// stop-loss or liquidation that closed the position first. The exchange is a stubbed fetch.

const SENT_AT = 1_800_000_000_000
const POSITION = { id: 7, symbol: 'btcusdt', direction: 'long' as const }

/** A filled close row of position 7, written `after` ms after the close was sent. */
function closeRow(row: Partial<ContractOrder>, after = 1000): ContractOrder {
  return {
    id: 100,
    symbol: 'btcusdt',
    direction: 'long',
    type: 'market',
    price: '60000',
    leverage: 10,
    shares: '10',
    margin: '60',
    status: 'filled',
    createdAt: SENT_AT + after,
    positionId: POSITION.id,
    filledShares: '10',
    filledPrice: '60000',
    ...row,
  }
}

/** The position's row in the history: closed at `closedAt`, whatever closed it. */
const closedPosition = { ...POSITION, status: 'closed', closedAt: SENT_AT + 1000 } as Partial<Position>

/** The exchange: its order list holds `orders`, its position history the position closed. */
function exchange(orders: ContractOrder[]) {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = String(input)
    const data = url.includes('/contract/order/list') ? orders : { rows: [closedPosition], total: 1 }
    return new Response(JSON.stringify({ code: 200, msg: 'ok', data }))
  })
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('findPositionClose', () => {
  it("finds the user's close at market by its manual close row", async () => {
    exchange([closeRow({ closeReason: 'manual' })])
    expect(await findPositionClose(POSITION, false, SENT_AT)).toBe(true)
  })

  it.each(['stopLoss', 'takeProfit', 'liquidation'] as const)(
    'names a %s that closed the position first: the close did not go through',
    async (reason) => {
      const type = reason === 'liquidation' ? 'market' : 'stopMarket'
      exchange([closeRow({ closeReason: reason, type })])
      expect(await findPositionClose(POSITION, false, SENT_AT)).toEqual({
        instead: `submit.closedFirst.${reason}`,
      })
    },
  )

  it('takes a close order resting at a price as placed, not a stop-loss that filled since', async () => {
    exchange([closeRow({ type: 'limit', status: 'open', filledShares: '0', filledPrice: '' })])
    expect(await findPositionClose(POSITION, true, SENT_AT)).toBe(true)
    exchange([closeRow({ closeReason: 'stopLoss', type: 'stopMarket' })])
    expect(await findPositionClose(POSITION, true, SENT_AT)).toEqual({
      instead: 'submit.closedFirst.stopLoss',
    })
  })

  it("counts neither an earlier close of the position nor another position's close", async () => {
    exchange([
      closeRow({ closeReason: 'manual' }, -60_000),
      closeRow({ closeReason: 'manual', positionId: 8 }),
    ])
    expect(await findPositionClose(POSITION, false, SENT_AT)).toBe(false)
  })
})
