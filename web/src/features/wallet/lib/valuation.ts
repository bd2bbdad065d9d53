import { add, mul, showPrice, showValue, type Balance } from '@tradegate/shared'

export interface CoinValue {
  coin: string
  /** available plus frozen, over every account */
  amount: string
  /** the price as shown, by the product's rounding rules; undefined when no price is known */
  price: string | undefined
  /** amount times the shown price, rounded down to cents */
  value: string | undefined
}

export interface Valuation {
  coins: CoinValue[]
  /** the sum of the coin values, so the total always adds up to what the rows show */
  total: string
}

/** Every coin held, valued in USDT at the price shown beside it. */
export function valueBalances(
  balances: readonly Balance[],
  priceOf: (coin: string) => string | undefined,
): Valuation {
  const amounts = new Map<string, string>()
  for (const row of balances) {
    const coin = row.coin.toLowerCase()
    amounts.set(coin, add(amounts.get(coin) ?? 0, add(row.available, row.frozen)).toFixed())
  }
  let total = add(0, 0)
  const coins = [...amounts].map(([coin, amount]): CoinValue => {
    const raw = priceOf(coin)
    const price = raw === undefined ? undefined : showPrice(raw)
    const value = price === undefined ? undefined : showValue(mul(amount, price))
    if (value !== undefined) total = add(total, value)
    return { coin, amount, price, value }
  })
  coins.sort((a, b) => Number(b.value ?? -1) - Number(a.value ?? -1) || a.coin.localeCompare(b.coin))
  return { coins, total: showValue(total) }
}
