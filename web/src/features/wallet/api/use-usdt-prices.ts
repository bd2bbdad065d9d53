import { useAllTickers } from '../../../lib/live/stream-hooks'
import { usdtSymbol } from '../../../lib/coins'
import { useCoinList } from '../../../lib/settings'

const STABLE_AT_ONE: ReadonlySet<string> = new Set(['usdt'])

/** The price in USDT of a coin: the live ticker's last price, else the coin list's, else unknown. */
export function useUsdtPrices(): (coin: string) => string | undefined {
  const tickers = useAllTickers()
  const coinList = useCoinList()
  return (coin) => {
    const lower = coin.toLowerCase()
    if (STABLE_AT_ONE.has(lower)) return '1'
    const symbol = usdtSymbol(lower)
    const live = tickers[symbol]?.close
    if (live !== undefined && live !== '') return String(live)
    return coinList?.coinList.find((entry) => entry.symbol.toLowerCase() === symbol)?.amount
  }
}
