import { describe, expect, it } from 'vitest'
import { nameHasWord } from './coin-names'

describe('nameHasWord', () => {
  it('finds a coin by the start of a word of its name, never by letters inside a word', () => {
    expect(nameHasWord('eth', 'eth')).toBe(true)
    expect(nameHasWord('etc', 'Ethereum')).toBe(true)
    // Tether holds "eth" inside its one word
    expect(nameHasWord('usdt', 'eth')).toBe(false)
    expect(nameHasWord('usdc', 'usd  coin')).toBe(true)
    expect(nameHasWord('usdc', 'coin')).toBe(true)
    expect(nameHasWord('usdc', 'oin')).toBe(false)
    expect(nameHasWord('btc', ' ')).toBe(false)
  })
})
