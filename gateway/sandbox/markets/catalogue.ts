import { coinName } from '@tradegate/shared'
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

const CRYPTO: ReadonlyArray<[coin: string, price: string, contract: boolean, second: boolean]> = [
  ['btc', '67250.00', true, true],
  ['eth', '3480.00', true, true],
  ['bnb', '585.40', true, true],
  ['sol', '152.30', true, true],
  ['xrp', '0.5230', true, true],
  ['ada', '0.4520', true, false],
  ['doge', '0.15320', true, true],
  ['trx', '0.12140', true, true],
  ['ton', '6.520', true, false],
  ['avax', '35.20', true, false],
  ['shib', '0.0000245', false, false],
  ['dot', '7.210', true, false],
  ['link', '14.520', true, false],
  ['bch', '452.10', true, false],
  ['ltc', '82.40', true, true],
  ['near', '5.810', false, false],
  ['pol', '0.7020', false, false],
  ['uni', '9.520', false, false],
  ['icp', '12.100', false, false],
  ['etc', '27.30', true, false],
  ['apt', '9.020', false, false],
  ['fil', '5.520', true, false],
  ['atom', '8.510', true, false],
  ['arb', '1.1020', false, false],
  ['op', '2.4100', false, false],
  ['xlm', '0.11020', false, false],
  ['hbar', '0.09120', false, false],
  ['vet', '0.035120', false, false],
  ['inj', '25.120', false, false],
  ['aave', '95.20', false, false],
  ['pepe', '0.00000952', false, false],
  ['algo', '0.18120', false, false],
  ['sui', '1.2010', false, false],
  ['mkr', '2710.00', false, false],
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
  ...CRYPTO.map(([coin, startPrice, contract, second]) => ({
    coin,
    symbol: `${coin}${QUOTE_COIN}`,
    name: coinName(coin),
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
    name: coinName('xau'),
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
/** The leverage presets of the other contract pairs: thinner markets are capped lower, as exchanges do. */
const CAPPED_LEVERAGES = '5,10,20,50'
const FULL_LEVERAGE_COINS = ['btc', 'eth']

/** A contract pair's leverage presets; any whole leverage up to the highest of them is taken. */
export function contractLeverages(instrument: Pick<Instrument, 'coin'>): string {
  return FULL_LEVERAGE_COINS.includes(instrument.coin) ? CONTRACT_LEVERAGES : CAPPED_LEVERAGES
}
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
