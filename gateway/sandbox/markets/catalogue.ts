// The listed instruments: starting prices near real ones, and which products each is traded in.

export interface Instrument {
  coin: string
  /** e.g. btcusdt; every pair is quoted in usdt */
  symbol: string
  name: string
  startPrice: string
  /** decimal places of a price */
  pricePlaces: number
  /** decimal places of a quantity */
  quantityPlaces: number
  /** 1 crypto, 3 MT5-style metal */
  coinType: 1 | 3
  market: string
  /** traded as a leveraged contract */
  contract: boolean
  /** offered for second contracts and options */
  second: boolean
}

export const QUOTE_COIN = 'usdt'

const CRYPTO: ReadonlyArray<[coin: string, name: string, price: string, contract: boolean, second: boolean]> =
  [
    ['btc', 'Bitcoin', '67250.00', true, true],
    ['eth', 'Ethereum', '3480.00', true, true],
    ['bnb', 'BNB', '585.40', true, true],
    ['sol', 'Solana', '152.30', true, true],
    ['xrp', 'XRP', '0.5230', true, true],
    ['ada', 'Cardano', '0.4520', true, false],
    ['doge', 'Dogecoin', '0.15320', true, true],
    ['trx', 'TRON', '0.12140', true, true],
    ['ton', 'Toncoin', '6.520', true, false],
    ['avax', 'Avalanche', '35.20', true, false],
    ['shib', 'Shiba Inu', '0.0000245', false, false],
    ['dot', 'Polkadot', '7.210', true, false],
    ['link', 'Chainlink', '14.520', true, false],
    ['bch', 'Bitcoin Cash', '452.10', true, false],
    ['ltc', 'Litecoin', '82.40', true, true],
    ['near', 'NEAR Protocol', '5.810', false, false],
    ['pol', 'Polygon', '0.7020', false, false],
    ['uni', 'Uniswap', '9.520', false, false],
    ['icp', 'Internet Computer', '12.100', false, false],
    ['etc', 'Ethereum Classic', '27.30', true, false],
    ['apt', 'Aptos', '9.020', false, false],
    ['fil', 'Filecoin', '5.520', true, false],
    ['atom', 'Cosmos', '8.510', true, false],
    ['arb', 'Arbitrum', '1.1020', false, false],
    ['op', 'Optimism', '2.4100', false, false],
    ['xlm', 'Stellar', '0.11020', false, false],
    ['hbar', 'Hedera', '0.09120', false, false],
    ['vet', 'VeChain', '0.035120', false, false],
    ['inj', 'Injective', '25.120', false, false],
    ['aave', 'Aave', '95.20', false, false],
    ['pepe', 'Pepe', '0.00000952', false, false],
    ['algo', 'Algorand', '0.18120', false, false],
    ['sui', 'Sui', '1.2010', false, false],
    ['mkr', 'Maker', '2710.00', false, false],
  ]

function pricePlacesOf(price: string): number {
  const value = Number(price)
  if (value >= 1000) return 2
  if (value >= 1) return 4
  if (value >= 0.01) return 6
  return 10
}

function quantityPlacesOf(price: string): number {
  const value = Number(price)
  if (value >= 1000) return 5
  if (value >= 10) return 3
  if (value >= 0.01) return 1
  return 0
}

export const INSTRUMENTS: readonly Instrument[] = Object.freeze([
  ...CRYPTO.map(([coin, name, startPrice, contract, second]) => ({
    coin,
    symbol: `${coin}${QUOTE_COIN}`,
    name,
    startPrice,
    pricePlaces: pricePlacesOf(startPrice),
    quantityPlaces: quantityPlacesOf(startPrice),
    coinType: 1 as const,
    market: 'crypto',
    contract,
    second,
  })),
  {
    coin: 'xau',
    symbol: `xau${QUOTE_COIN}`,
    name: 'Gold',
    startPrice: '2352.40',
    pricePlaces: 2,
    quantityPlaces: 3,
    coinType: 3,
    market: 'mt5',
    contract: true,
    second: true,
  },
])

export const CONTRACT_LEVERAGES = '5,10,20,50,100'
/** One contract share is this many usdt of position value. */
export const USDT_PER_SHARE = '10'
export const SPOT_FEE_RATE = '0.002'

/** Second-contract periods: seconds, the share of the stake a win pays, and stake limits. */
export const DEFAULT_SECOND_PERIODS: ReadonlyArray<{ seconds: number; rate: string }> = [
  { seconds: 30, rate: '0.1' },
  { seconds: 60, rate: '0.15' },
  { seconds: 120, rate: '0.2' },
  { seconds: 300, rate: '0.3' },
]
export const SECOND_MIN_AMOUNT = '10'
export const SECOND_MAX_AMOUNT = '50000'
