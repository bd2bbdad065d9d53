// The names coins are known by, so a trader can find "bitcoin" as well as "BTC". Proper names,
// the same in every language. The sandbox lists its instruments under these names too.

export const COIN_NAMES: Readonly<Record<string, string>> = Object.freeze({
  btc: 'Bitcoin',
  eth: 'Ethereum',
  bnb: 'BNB',
  sol: 'Solana',
  xrp: 'XRP',
  ada: 'Cardano',
  doge: 'Dogecoin',
  trx: 'TRON',
  ton: 'Toncoin',
  avax: 'Avalanche',
  shib: 'Shiba Inu',
  dot: 'Polkadot',
  link: 'Chainlink',
  bch: 'Bitcoin Cash',
  ltc: 'Litecoin',
  near: 'NEAR Protocol',
  pol: 'Polygon',
  uni: 'Uniswap',
  icp: 'Internet Computer',
  etc: 'Ethereum Classic',
  apt: 'Aptos',
  fil: 'Filecoin',
  atom: 'Cosmos',
  arb: 'Arbitrum',
  op: 'Optimism',
  xlm: 'Stellar',
  hbar: 'Hedera',
  vet: 'VeChain',
  inj: 'Injective',
  aave: 'Aave',
  pepe: 'Pepe',
  algo: 'Algorand',
  sui: 'Sui',
  mkr: 'Maker',
  xau: 'Gold',
  usdt: 'Tether',
  usdc: 'USD Coin',
})

/** The coin's name, or its code in capitals when it has no known name. */
export function coinName(coin: string): string {
  return COIN_NAMES[coin.toLowerCase()] ?? coin.toUpperCase()
}

/** Text as a search compares it: lower case, without spaces or the slash of a pair. */
export function searchKey(text: string): string {
  return text.trim().toLowerCase().replace(/[\s/]/g, '')
}

/** Whether a coin matches a search by its code, its pair's symbol or its name. */
export function coinMatches(needle: string, coin: string, symbol: string): boolean {
  const key = searchKey(needle)
  return !key || symbol.toLowerCase().includes(key) || searchKey(coinName(coin)).includes(key)
}

/**
 * Whether a coin's name has a word that begins with `text` ("eth" finds Ethereum and Ethereum Classic,
 * "usd c" finds USD Coin), never a match inside a word: Tether holds "eth" but is no answer to it.
 */
export function nameHasWord(coin: string, text: string): boolean {
  const typed = text.trim().toLowerCase().replace(/\s+/g, ' ')
  return typed !== '' && ` ${coinName(coin).toLowerCase()}`.includes(` ${typed}`)
}
