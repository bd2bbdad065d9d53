import { describe, expect, it } from 'vitest'
import { coinOfChannel, shownChannel } from './channels'

const rows = ['USDT-TRC20', 'USDT-ERC20', 'BTC-BTC', 'XRP-XRP']
const pick = (picked: string | null, linked?: string | null) =>
  shownChannel(rows, (name) => name, picked, linked)

describe('the channel a deposit or withdrawal screen shows', () => {
  it("is the coin's first network a link names, in any case", () => {
    expect(pick(null, 'xrp')).toBe('XRP-XRP')
    expect(pick(null, 'USDT')).toBe('USDT-TRC20')
    expect(coinOfChannel('XRP-XRP')).toBe('xrp')
  })

  it("is the user's pick over the link's coin, and the first when neither names one", () => {
    expect(pick('USDT-ERC20', 'xrp')).toBe('USDT-ERC20')
    expect(pick(null, null)).toBe('USDT-TRC20')
    expect(pick(null, 'doge')).toBe('USDT-TRC20')
  })
})
